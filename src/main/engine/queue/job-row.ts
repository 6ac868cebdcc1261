// The jobs table as the engine reads it.
import type { JobState } from '../../../shared/domain';

export interface JobRow {
  id: number;
  batch_id: string;
  seq: number;
  state: JobState;
  idempotency_key: string;
  source: string;
  payload_json: string;
  request_body: string | null;
  estimated_units: number;
  estimated_cost: number;
  tries: number;
  attempts: number;
  /** 429s in a row since the last success or resume (their own budget: SERVER_WAIT). */
  limited_tries: number;
  fingerprint: number | null;
  run_at: number;
  lease_token: string | null;
  lease_expires_at: number | null;
  units: number | null;
  cost: number | null;
  result_json: string | null;
  raw_response: string | null;
  error_kind: string | null;
  error_message: string | null;
  http_status: number | null;
  created_at: number;
  updated_at: number;
  finished_at: number | null;
  /** The parent batch's job this follow-up job was made from (pipelines); null otherwise. */
  parent_job_id: number | null;
}

/** A job as handed to a worker: the lease token is what makes its finish count. */
export interface LeasedJob extends JobRow {
  lease_token: string;
}

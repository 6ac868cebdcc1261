// The errors a user can act on, thrown on every floor of the engine (docs/architecture.md
// "Layers"); failures.ts sorts them, with every other error, into a FailureKind for the faces.
import type { Refusal } from '../../shared/refusals';

/**
 * The user asked for something that cannot be done as asked (bad argument, wrong state).
 * `refusal`: the same as a code, where the window can meet it (its English names commands to type).
 */
export class UserError extends Error {
  override readonly name: string = 'UserError';
  constructor(
    message: string,
    readonly refusal: Refusal | null = null,
  ) {
    super(message);
  }
}
/** The team's shared store cannot be reached or refuses this computer: nothing can run until it can. */
export class SharedStoreError extends Error {
  override readonly name = 'SharedStoreError';
}
/** A batch, job, key or export that does not exist. */
export class NotFoundError extends UserError {
  override readonly name = 'NotFoundError';
}

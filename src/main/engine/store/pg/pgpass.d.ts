// pgpass 1.0.5 (the ~/.pgpass reader pg itself uses) ships no types: its one export.
declare module 'pgpass' {
  interface ConnInfo {
    host: string;
    port: string | number;
    database: string;
    user: string;
  }
  function pgpass(connInfo: ConnInfo, cb: (password: string | undefined) => void): void;
  export default pgpass;
}

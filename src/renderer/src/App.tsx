export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', padding: '2rem' }}>
      <h1>Batchdesk</h1>
      <p>The batch engine is there. Drive it from the command line for now: <code>batchdesk --help</code>.</p>
    </main>
  );
}

export function NotFoundScreen({ hash }: { hash: string }) {
  return (
    <div className="screen">
      <h1>Page not found</h1>
      <p>
        There is no screen at <code>{hash}</code>. <a href="#/batches">Go to the batches</a>.
      </p>
    </div>
  );
}

import { ApiProblem } from '../api.js';

/** An error as the user should read it: the API's detail and every field it names. */
export function Problem({ error }: { error: Error | undefined }) {
  if (!error) return null;
  const fields = error instanceof ApiProblem ? error.errors : [];
  return (
    <div class="problem" role="alert">
      <strong>{error instanceof ApiProblem ? `${error.status}: ` : ''}</strong>
      {error.message}
      {fields.length > 0 && (
        <ul>
          {fields.slice(0, 50).map((f, i) => (
            <li key={i}>
              <code>{f.path}</code>: {f.message}
            </li>
          ))}
          {fields.length > 50 && <li>… and {fields.length - 50} more</li>}
        </ul>
      )}
    </div>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" role="status">
      Loading {what}…
    </p>
  );
}

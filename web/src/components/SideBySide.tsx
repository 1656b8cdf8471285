import { lineDiff, prettyLines } from '../lineDiff.js';

/** Expected and actual values side by side, changed lines marked (colour plus a +/−/~ sign for those who cannot see it). */
export function SideBySide({
  left,
  right,
  leftLabel = 'Expected',
  rightLabel = 'Actual',
  caption,
}: {
  left: unknown;
  right: unknown;
  leftLabel?: string;
  rightLabel?: string;
  caption: string;
}) {
  const rows = lineDiff(prettyLines(left), prettyLines(right));
  const changed = rows.filter((r) => r.kind !== 'same').length;
  return (
    <table class="diff" data-testid="call-diff">
      <caption>
        {caption} <span class="muted">({changed === 0 ? 'identical' : `${changed} line${changed === 1 ? '' : 's'} differ`})</span>
      </caption>
      <thead>
        <tr>
          <th scope="col">{leftLabel}</th>
          <th scope="col">{rightLabel}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((r, i) => (
          <tr key={i} class={`diff-${r.kind}`}>
            <td>
              <span class="sign" aria-hidden="true">
                {r.kind === 'removed' ? '−' : r.kind === 'changed' ? '~' : ' '}
              </span>
              <code>{r.left ?? ''}</code>
              {r.kind !== 'same' && r.left !== null && <span class="sr-only"> (only in {leftLabel.toLowerCase()} or changed)</span>}
            </td>
            <td>
              <span class="sign" aria-hidden="true">
                {r.kind === 'added' ? '+' : r.kind === 'changed' ? '~' : ' '}
              </span>
              <code>{r.right ?? ''}</code>
              {r.kind !== 'same' && r.right !== null && <span class="sr-only"> (only in {rightLabel.toLowerCase()} or changed)</span>}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

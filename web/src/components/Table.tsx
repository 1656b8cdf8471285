import type { ComponentChildren } from 'preact';
import { useMemo, useState } from 'preact/hooks';

export interface Column<T> {
  key: string;
  label: string;
  /** the value sorted and filtered on */
  value: (row: T) => string | number | null | undefined;
  /** how the cell shows (default: the value) */
  render?: (row: T) => ComponentChildren;
  numeric?: boolean;
}

interface TableProps<T> {
  caption: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** a text box filters rows on every column's value */
  filterable?: boolean;
  initialSort?: { key: string; dir: 'asc' | 'desc' };
  empty?: string;
  /** test id of the table element */
  id?: string;
}

/** A table sortable by any column (click its header) and filterable by text, accessible (aria-sort, caption). */
export function Table<T>({
  caption,
  columns,
  rows,
  rowKey,
  filterable = true,
  initialSort,
  empty = 'Nothing to show.',
  id,
}: TableProps<T>) {
  const [sort, setSort] = useState(initialSort);
  const [filter, setFilter] = useState('');
  const shown = useMemo(() => {
    const needle = filter.trim().toLowerCase();
    const kept = needle
      ? rows.filter((r) =>
          columns.some((c) =>
            String(c.value(r) ?? '')
              .toLowerCase()
              .includes(needle),
          ),
        )
      : rows;
    if (!sort) return kept;
    const col = columns.find((c) => c.key === sort.key);
    if (!col) return kept;
    const sign = sort.dir === 'asc' ? 1 : -1;
    return [...kept].sort((a, b) => {
      const x = col.value(a);
      const y = col.value(b);
      if (x === y) return 0;
      if (x === null || x === undefined) return 1;
      if (y === null || y === undefined) return -1;
      return (typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y))) * sign;
    });
  }, [rows, columns, sort, filter]);
  const filterId = `${id ?? caption.replace(/\W+/g, '-').toLowerCase()}-filter`;
  return (
    <div class="table-wrap">
      {filterable && (
        <div class="table-tools">
          <label for={filterId}>Filter {caption.toLowerCase()}</label>
          <input id={filterId} type="search" value={filter} onInput={(e) => setFilter((e.target as HTMLInputElement).value)} />
          <span class="muted">
            {shown.length} of {rows.length}
          </span>
        </div>
      )}
      <table id={id} data-testid={id}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {columns.map((c) => {
              const active = sort?.key === c.key;
              return (
                <th
                  key={c.key}
                  scope="col"
                  aria-sort={active ? (sort!.dir === 'asc' ? 'ascending' : 'descending') : 'none'}
                  class={c.numeric ? 'num' : undefined}
                >
                  <button
                    type="button"
                    class="sort"
                    onClick={() => setSort({ key: c.key, dir: active && sort!.dir === 'asc' ? 'desc' : 'asc' })}
                  >
                    {c.label}
                    <span aria-hidden="true">{active ? (sort!.dir === 'asc' ? ' ▲' : ' ▼') : ''}</span>
                  </button>
                </th>
              );
            })}
          </tr>
        </thead>
        <tbody>
          {shown.length === 0 ? (
            <tr>
              <td colSpan={columns.length} class="muted">
                {empty}
              </td>
            </tr>
          ) : (
            shown.map((r) => (
              <tr key={rowKey(r)}>
                {columns.map((c) => (
                  <td key={c.key} class={c.numeric ? 'num' : undefined}>
                    {c.render ? c.render(r) : (c.value(r) ?? '–')}
                  </td>
                ))}
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}

// A sortable table on TanStack Table v9: stable `columns` and `data` come from the caller (memoised),
// the table owns the sort state, the markup is ours.
import { createSortedRowModel, rowSortingFeature, sortFn_alphanumeric, tableFeatures, useTable, type ColumnDef, type RowData } from '@tanstack/react-table';

export const sortableFeatures = tableFeatures({
  rowSortingFeature,
  sortedRowModel: createSortedRowModel(),
  sortFns: { alphanumeric: sortFn_alphanumeric },
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- TanStack's column-array type: each column has its own value type (unknown does not accept them).
export type SortableColumn<T extends RowData> = ColumnDef<typeof sortableFeatures, T, any>;

export interface DataTableProps<T extends RowData> {
  columns: SortableColumn<T>[];
  data: T[];
  rowKey(row: T): string;
  rowClass?(row: T): string;
  onRowClick?(row: T): void;
  testId?: string;
  numeric?: ReadonlySet<string>;
}

export function DataTable<T extends RowData>({ columns, data, rowKey, rowClass, onRowClick, testId, numeric }: DataTableProps<T>) {
  const table = useTable({ features: sortableFeatures, columns, data, getRowId: (row: T) => rowKey(row) });
  return (
    <table className="table" data-testid={testId}>
      <thead>
        {table.getHeaderGroups().map((group) => (
          <tr key={group.id}>
            {group.headers.map((header) => {
              const sorted = header.column.getIsSorted();
              const can = header.column.getCanSort();
              return (
                <th
                  key={header.id}
                  className={`${can ? 'sortable' : ''}${numeric?.has(header.column.id) ? ' num' : ''}`}
                  onClick={can ? header.column.getToggleSortingHandler() : undefined}
                  aria-sort={sorted === 'asc' ? 'ascending' : sorted === 'desc' ? 'descending' : undefined}
                  tabIndex={can ? 0 : undefined}
                  onKeyDown={
                    can
                      ? (e) => {
                          if (e.key === 'Enter') header.column.toggleSorting();
                        }
                      : undefined
                  }
                >
                  {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                  {sorted ? (sorted === 'asc' ? ' ▲' : ' ▼') : ''}
                </th>
              );
            })}
          </tr>
        ))}
      </thead>
      <tbody>
        {table.getRowModel().rows.map((row) => (
          <tr
            key={row.id}
            className={`${rowClass?.(row.original) ?? ''}${onRowClick ? ' clickable' : ''}`}
            onClick={onRowClick ? () => onRowClick(row.original) : undefined}
          >
            {row.getAllCells().map((cell) => (
              <td key={cell.id} className={numeric?.has(cell.column.id) ? 'num' : undefined}>
                <table.FlexRender cell={cell} />
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

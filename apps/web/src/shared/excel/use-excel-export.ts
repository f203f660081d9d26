import { useCallback, useState } from 'react';
import type { TCell } from './xlsx';

export interface TExcelColumn<T> {
  title: string;
  value: (row: T) => TCell;
}

export interface TExcelExport<T> {
  fileName: string;
  sheetName?: string;
  columns: TExcelColumn<T>[];
  rows: T[];
}

/** Start a browser download of bytes under a file name. */
export function downloadBytes(bytes: Uint8Array, fileName: string, type: string): void {
  const blob = new Blob([bytes as BlobPart], { type });
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Export rows to an .xlsx file in the browser; the writer is loaded on first use. */
export function useExcelExport<T>(): { exportExcel: (spec: TExcelExport<T>) => Promise<void>; exporting: boolean } {
  const [exporting, setExporting] = useState(false);
  const exportExcel = useCallback(async (spec: TExcelExport<T>) => {
    setExporting(true);
    try {
      const { buildXlsx } = await import('./xlsx');
      const bytes = buildXlsx({
        name: spec.sheetName ?? spec.fileName,
        header: spec.columns.map((c) => c.title),
        rows: spec.rows.map((row) => spec.columns.map((c) => c.value(row))),
      });
      const name = spec.fileName.endsWith('.xlsx') ? spec.fileName : `${spec.fileName}.xlsx`;
      downloadBytes(bytes, name, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    } finally {
      setExporting(false);
    }
  }, []);
  return { exportExcel, exporting };
}

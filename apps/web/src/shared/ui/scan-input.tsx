import { ScanOutlined } from '@ant-design/icons';
import { Input, type InputRef } from 'antd';
import type { Ref } from 'react';
import { holdKeysWhile } from './scan-buffer';

/**
 * A scanner-first text box: a keyboard-wedge scanner types the code and presses Enter, so Enter hands the trimmed
 * value on (the page then moves the focus to the next box, in an effect or when the box mounts). What the scanner types
 * before the handler has settled and the next box has the focus is held and typed there (scan-buffer.ts), so a fast
 * scanner never appends the next code to this one. The text is selected on focus so the next scan replaces it.
 */
export function ScanInput(props: {
  ref?: Ref<InputRef>;
  value?: string;
  onChange?: (v: string) => void;
  /** May return a promise: keys typed meanwhile wait for it and go to the box focused after it. */
  onScan: (code: string) => unknown;
  placeholder?: string;
  autoFocus?: boolean;
  'aria-label'?: string;
  'data-testid'?: string;
  disabled?: boolean;
}) {
  return (
    <Input
      ref={props.ref}
      value={props.value}
      onChange={(e) => props.onChange?.(e.target.value)}
      onPressEnter={(e) => {
        e.preventDefault();
        const box = e.target as HTMLInputElement;
        const code = box.value.trim();
        // Selected, so a code typed into this box again replaces this one instead of being appended to it.
        box.select();
        if (code) holdKeysWhile(props.onScan(code));
      }}
      onFocus={(e) => e.target.select()}
      prefix={<ScanOutlined />}
      placeholder={props.placeholder}
      autoFocus={props.autoFocus}
      aria-label={props['aria-label']}
      data-testid={props['data-testid']}
      disabled={props.disabled}
      autoComplete="off"
      allowClear
    />
  );
}

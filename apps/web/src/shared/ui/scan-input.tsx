import { ScanOutlined } from '@ant-design/icons';
import { Input, type InputRef } from 'antd';
import type { Ref } from 'react';

/**
 * A scanner-first text box: a keyboard-wedge scanner types the code and presses Enter, so Enter hands the trimmed
 * value on (the page then moves the focus to the next box). The text is selected on focus so the next scan replaces it.
 */
export function ScanInput(props: {
  ref?: Ref<InputRef>;
  value?: string;
  onChange?: (v: string) => void;
  onScan: (code: string) => void;
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
        const code = (e.target as HTMLInputElement).value.trim();
        if (code) props.onScan(code);
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

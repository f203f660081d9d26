import { CameraOutlined, ScanOutlined } from '@ant-design/icons';
import { Button, Input, type InputRef } from 'antd';
import { type CSSProperties, lazy, type Ref, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { holdKeysWhile } from './scan-buffer';
import { scanFeedback, scanOutcome } from './scan-feedback';

const CameraScanModal = lazy(() => import('./camera-scan-modal'));

/** A camera the page may ask for (a secure context: https or localhost). */
const hasCamera = () => typeof navigator !== 'undefined' && Boolean(navigator.mediaDevices?.getUserMedia);

/**
 * A scanner-first text box: a keyboard-wedge scanner types the code and presses Enter, so Enter hands the trimmed
 * value on (the page then moves the focus to the next box, in an effect or when the box mounts). What the scanner types
 * before the handler has settled and the next box has the focus is held and typed there (scan-buffer.ts), so a fast
 * scanner never appends the next code to this one. The text is selected on focus so the next scan replaces it.
 * Where the browser has a camera, a camera button reads the code from the camera instead (camera-scan-modal.tsx): the
 * code is put in the box and handed to the same `onScan` as a wedge scan's Enter. Every scan ends in the handheld's
 * cue (scan-feedback.ts): a beep for an accepted scan, the distinct error tone for a refused one.
 */
export function ScanInput(props: {
  ref?: Ref<InputRef>;
  value?: string;
  onChange?: (v: string) => void;
  /**
   * May return a promise: keys typed meanwhile wait for it and go to the box focused after it. Answering (or
   * resolving to) `false`, or throwing, means the scan was refused: the error tone and long vibration play instead
   * of the success beep.
   */
  onScan: (code: string) => unknown;
  placeholder?: string;
  autoFocus?: boolean;
  'aria-label'?: string;
  'data-testid'?: string;
  disabled?: boolean;
  /** The camera stays open and hands on every code (counting screens). */
  cameraContinuous?: boolean;
  style?: CSSProperties;
}) {
  const { t } = useTranslation('common');
  const [camera, setCamera] = useState(false);
  const box = useRef<InputRef | null>(null);
  const setRef = (el: InputRef | null) => {
    box.current = el;
    if (typeof props.ref === 'function') props.ref(el);
    else if (props.ref) (props.ref as { current: InputRef | null }).current = el;
  };
  /** Hands the code to the screen's handler; its outcome sounds (scan-feedback.ts) and keys wait for it. */
  const handle = (code: string) => {
    let result: unknown;
    try {
      result = props.onScan(code);
    } catch (err) {
      result = Promise.reject(err);
    }
    void scanOutcome(result).then(scanFeedback);
    holdKeysWhile(result);
  };
  const fromCamera = (code: string) => {
    props.onChange?.(code);
    // As if the scanner had typed it here: the box has the focus, then the handler moves it on.
    box.current?.focus();
    handle(code);
  };
  const input = (
    <Input
      ref={setRef}
      value={props.value}
      onChange={(e) => props.onChange?.(e.target.value)}
      onPressEnter={(e) => {
        e.preventDefault();
        const box = e.target as HTMLInputElement;
        const code = box.value.trim();
        // Selected, so a code typed into this box again replaces this one instead of being appended to it.
        box.select();
        if (code) handle(code);
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
      style={props.style}
      suffix={
        hasCamera() ? (
          <Button
            type="text"
            size="small"
            icon={<CameraOutlined />}
            onClick={() => setCamera(true)}
            disabled={props.disabled}
            aria-label={t('camera.open')}
            title={t('camera.open')}
            data-testid={props['data-testid'] ? `${props['data-testid']}-camera` : undefined}
          />
        ) : undefined
      }
    />
  );
  return (
    <>
      {input}
      {camera ? (
        <Suspense fallback={null}>
          <CameraScanModal
            open
            continuous={props.cameraContinuous}
            onCode={fromCamera}
            onClose={() => setCamera(false)}
          />
        </Suspense>
      ) : null}
    </>
  );
}

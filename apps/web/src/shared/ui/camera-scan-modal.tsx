import { Alert, Modal, Space, Switch, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
// The decoder's WebAssembly is served by this app (the CSP allows no CDN, and a warehouse may be offline).
import zxingWasmUrl from 'zxing-wasm/reader/zxing_reader.wasm?url';

/**
 * The camera as a scanner, for phones and handhelds without a keyboard-wedge scanner: the rear camera's picture is
 * read by the browser's own BarcodeDetector where it has one (Chrome on Android), else by ZXing compiled to
 * WebAssembly (the `barcode-detector` ponyfill), both for EAN-13/EAN-8/UPC, Code 128/39, QR and DataMatrix. A code
 * read goes to `onCode`, which the scan box hands to the same handler as a wedge scan. In continuous mode (counting)
 * the camera stays open and every code read is handed on; the same code again only after it was out of view for a
 * moment, so one label held in view counts once.
 * Loaded only when the camera is opened (React.lazy in scan-input.tsx): the decoder is not in the pages' bundles.
 */

const FORMATS = ['ean_13', 'ean_8', 'upc_a', 'upc_e', 'code_128', 'code_39', 'qr_code', 'data_matrix'] as const;
/** The same code read again within this time is the same label still in view. */
const SAME_CODE_PAUSE_MS = 1500;
/** Time between two reads of the picture (a read takes 20–80 ms on a phone). */
const READ_EVERY_MS = 150;

interface TDetector {
  detect(source: HTMLVideoElement): Promise<Array<{ rawValue: string }>>;
}

type TBarcodeDetectorClass = {
  new (opts: { formats: string[] }): TDetector;
  getSupportedFormats?: () => Promise<string[]>;
};

async function makeDetector(): Promise<TDetector> {
  const native = (window as unknown as { BarcodeDetector?: TBarcodeDetectorClass }).BarcodeDetector;
  if (native?.getSupportedFormats) {
    const supported = await native.getSupportedFormats();
    const formats = FORMATS.filter((f) => supported.includes(f));
    if (formats.length > 0) return new native({ formats });
  }
  const { BarcodeDetector, prepareZXingModule } = await import('barcode-detector/ponyfill');
  prepareZXingModule({
    overrides: {
      locateFile: (path: string, prefix: string) => (path.endsWith('.wasm') ? zxingWasmUrl : prefix + path),
    },
  });
  return new BarcodeDetector({ formats: [...FORMATS] });
}

type TProblem = 'denied' | 'none' | 'decoder' | null;

export default function CameraScanModal(props: {
  open: boolean;
  /** Start in continuous mode (counting screens). */
  continuous?: boolean;
  onCode: (code: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation('common');
  const videoRef = useRef<HTMLVideoElement>(null);
  const [continuous, setContinuous] = useState(Boolean(props.continuous));
  const [problem, setProblem] = useState<TProblem>(null);
  const [read, setRead] = useState<Array<{ code: string; n: number }>>([]);
  const [ready, setReady] = useState(false);
  // The latest callbacks and mode, read by the running loop without restarting the camera.
  const live = useRef({ continuous, onCode: props.onCode, onClose: props.onClose });
  live.current = { continuous, onCode: props.onCode, onClose: props.onClose };

  useEffect(() => {
    if (!props.open) return;
    let stopped = false;
    let stream: MediaStream | null = null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let last = { code: '', at: 0 };
    let reads = 0;
    setProblem(null);
    setRead([]);
    setReady(false);

    const run = async () => {
      if (!navigator.mediaDevices?.getUserMedia) return setProblem('none');
      try {
        stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: { ideal: 'environment' }, width: { ideal: 1280 }, height: { ideal: 720 } },
          audio: false,
        });
      } catch (err) {
        const name = (err as { name?: string }).name;
        return setProblem(name === 'NotAllowedError' || name === 'SecurityError' ? 'denied' : 'none');
      }
      if (stopped) return;
      const video = videoRef.current;
      if (!video) return;
      video.srcObject = stream;
      await video.play().catch(() => undefined);
      let detector: TDetector;
      try {
        detector = await makeDetector();
      } catch {
        return setProblem('decoder');
      }
      setReady(true);
      const tick = async () => {
        if (stopped) return;
        if (video.readyState >= 2) {
          const codes = await detector.detect(video).catch(() => []);
          const code = codes.map((c) => c.rawValue.trim()).find((c) => c.length > 0);
          const now = Date.now();
          if (code && !stopped) {
            // Still in view (read again within the pause): the same label, not a second one.
            const again = code === last.code && now - last.at <= SAME_CODE_PAUSE_MS;
            last = { code, at: now };
            if (!again) {
              if (!live.current.continuous) {
                stopped = true;
                live.current.onClose();
                live.current.onCode(code);
                return;
              }
              reads += 1;
              const n = reads;
              setRead((r) => [{ code, n }, ...r].slice(0, 8));
              live.current.onCode(code);
            }
          }
        }
        timer = setTimeout(() => void tick(), READ_EVERY_MS);
      };
      void tick();
    };
    void run();
    return () => {
      stopped = true;
      clearTimeout(timer);
      for (const track of stream?.getTracks() ?? []) track.stop();
    };
  }, [props.open]);

  return (
    <Modal
      open={props.open}
      title={t('camera.title')}
      onCancel={props.onClose}
      footer={null}
      destroyOnHidden
      // The flow moves the focus to its next box: closing must not hand it back to the camera button.
      focusTriggerAfterClose={false}
      width={520}
      data-testid="camera-scan"
    >
      <Space orientation="vertical" style={{ width: '100%' }}>
        {problem ? (
          <Alert type="error" showIcon title={t(`camera.problem.${problem}`)} data-testid="camera-problem" />
        ) : null}
        <video
          ref={videoRef}
          muted
          playsInline
          style={{ width: '100%', maxHeight: '60vh', background: '#000', borderRadius: 8 }}
          data-testid="camera-video"
        />
        <Space>
          <Switch
            checked={continuous}
            onChange={setContinuous}
            aria-label={t('camera.continuous')}
            data-testid="camera-continuous"
          />
          <span>{t('camera.continuous')}</span>
        </Space>
        <Typography.Text type="secondary">{ready ? t('camera.hint') : t('camera.starting')}</Typography.Text>
        {read.length > 0 ? (
          <div data-testid="camera-read">
            {read.map((r) => (
              <Tag key={r.n}>{r.code}</Tag>
            ))}
          </div>
        ) : null}
      </Space>
    </Modal>
  );
}

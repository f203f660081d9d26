import { useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';

/** The app writes the theme preference on <html data-theme> (app.tsx); the chart follows that attribute. */
function subscribeTheme(onChange: () => void): () => void {
  const observer = new MutationObserver(onChange);
  observer.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
  return () => observer.disconnect();
}

export interface TChartSeries {
  name: string;
  type: 'bar' | 'line';
  data: number[];
  stack?: string;
}

const PALETTE = ['#1677ff', '#52c41a', '#faad14', '#f5222d', '#722ed1', '#13c2c2', '#eb2f96', '#fa8c16'];
const GRID = { left: 48, right: 16, top: 36, bottom: 28 };

/** A round step for about five ticks from 0 to `max` (whole numbers: the charts count orders, lines, units). */
export function niceTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = Math.max(1, [1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude);
  const ticks: number[] = [];
  for (let v = 0; v < max + step; v += step) ticks.push(v);
  return ticks;
}

/** Bars of one category: series sharing a `stack` pile up in one slot, every other bar series has its own slot. */
export function barSlots(series: TChartSeries[]): Array<{ key: string; members: number[] }> {
  const slots: Array<{ key: string; members: number[] }> = [];
  series.forEach((s, i) => {
    if (s.type !== 'bar') return;
    const key = s.stack ? `stack:${s.stack}` : `own:${i}`;
    const slot = slots.find((x) => x.key === key);
    if (slot) slot.members.push(i);
    else slots.push({ key, members: [i] });
  });
  return slots;
}

/** The highest value the y axis must reach: the tallest pile of bars or the highest line point. */
export function chartMax(series: TChartSeries[], categories: number): number {
  let max = 0;
  const slots = barSlots(series);
  for (let c = 0; c < categories; c++) {
    for (const slot of slots)
      max = Math.max(
        max,
        slot.members.reduce((sum, i) => sum + (series[i]!.data[c] ?? 0), 0),
      );
    for (const s of series) if (s.type === 'line') max = Math.max(max, s.data[c] ?? 0);
  }
  return max;
}

function draw(
  canvas: HTMLCanvasElement,
  width: number,
  height: number,
  categories: string[],
  series: TChartSeries[],
  dark: boolean,
  hover: number | null,
): void {
  const ratio = window.devicePixelRatio || 1;
  canvas.width = Math.round(width * ratio);
  canvas.height = Math.round(height * ratio);
  const g = canvas.getContext('2d');
  if (!g) return;
  g.setTransform(ratio, 0, 0, ratio, 0, 0);
  g.clearRect(0, 0, width, height);
  const text = dark ? 'rgba(255,255,255,0.65)' : 'rgba(0,0,0,0.65)';
  const line = dark ? '#303030' : '#f0f0f0';
  g.font = '12px -apple-system, BlinkMacSystemFont, "Segoe UI", "Noto Sans TC", "Noto Sans JP", sans-serif';
  g.textBaseline = 'middle';

  // Legend, centred on the top row.
  const items = series.map((s, i) => ({ s, color: PALETTE[i % PALETTE.length]!, w: g.measureText(s.name).width + 26 }));
  let x = Math.max(0, (width - items.reduce((sum, it) => sum + it.w, 0)) / 2);
  for (const it of items) {
    g.fillStyle = it.color;
    g.fillRect(x, 6, 14, 10);
    g.fillStyle = text;
    g.fillText(it.s.name, x + 18, 11);
    x += it.w;
  }

  const left = GRID.left;
  const top = GRID.top;
  const plotW = Math.max(1, width - GRID.left - GRID.right);
  const plotH = Math.max(1, height - GRID.top - GRID.bottom);
  const ticks = niceTicks(chartMax(series, categories.length));
  const top1 = ticks[ticks.length - 1]!;
  const y = (v: number) => top + plotH - (v / top1) * plotH;

  // Grid lines and y labels.
  g.textAlign = 'right';
  for (const t of ticks) {
    g.strokeStyle = line;
    g.beginPath();
    g.moveTo(left, Math.round(y(t)) + 0.5);
    g.lineTo(left + plotW, Math.round(y(t)) + 0.5);
    g.stroke();
    g.fillStyle = text;
    g.fillText(t.toLocaleString(), left - 8, y(t));
  }

  const n = Math.max(1, categories.length);
  const band = plotW / n;
  if (hover !== null) {
    g.fillStyle = dark ? 'rgba(255,255,255,0.06)' : 'rgba(0,0,0,0.04)';
    g.fillRect(left + hover * band, top, band, plotH);
  }

  // x labels: as many as fit.
  g.textAlign = 'center';
  g.fillStyle = text;
  const every = Math.max(1, Math.ceil(n / Math.max(1, Math.floor(plotW / 64))));
  categories.forEach((c, i) => {
    if (i % every === 0) g.fillText(c, left + band * (i + 0.5), top + plotH + 14);
  });

  // Bars: one slot per stack (or lone series) side by side in each category band.
  const slots = barSlots(series);
  if (slots.length) {
    const slotW = Math.min(40, (band * 0.7) / slots.length);
    const start = (band - slotW * slots.length) / 2;
    for (let c = 0; c < categories.length; c++) {
      slots.forEach((slot, k) => {
        let base = 0;
        for (const i of slot.members) {
          const v = series[i]!.data[c] ?? 0;
          if (v <= 0) continue;
          g.fillStyle = PALETTE[i % PALETTE.length]!;
          g.fillRect(left + band * c + start + slotW * k, y(base + v), Math.max(1, slotW - 1), y(base) - y(base + v));
          base += v;
        }
      });
    }
  }

  // Lines, through the middle of each band.
  series.forEach((s, i) => {
    if (s.type !== 'line') return;
    g.strokeStyle = PALETTE[i % PALETTE.length]!;
    g.fillStyle = PALETTE[i % PALETTE.length]!;
    g.lineWidth = 2;
    g.beginPath();
    s.data.forEach((v, c) => {
      const px = left + band * (c + 0.5);
      if (c === 0) g.moveTo(px, y(v));
      else g.lineTo(px, y(v));
    });
    g.stroke();
    g.lineWidth = 1;
    s.data.forEach((v, c) => {
      g.beginPath();
      g.arc(left + band * (c + 0.5), y(v), 2.5, 0, Math.PI * 2);
      g.fill();
    });
  });
}

/**
 * One chart of the analysis screens and the dashboard: bars (stacked by `stack`) and lines over categories, a legend,
 * and the hovered category's values in a tooltip. Drawn on a canvas by this module (a charting library was 175 kB of
 * the dashboard's JavaScript for this); follows the light/dark preference and the container's width.
 */
export function Chart(props: { categories: string[]; series: TChartSeries[]; height?: number; testId?: string }) {
  const box = useRef<HTMLDivElement>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const dark = useSyncExternalStore(subscribeTheme, () => document.documentElement.dataset.theme === 'dark');
  const [width, setWidth] = useState(0);
  const [hover, setHover] = useState<number | null>(null);
  const height = props.height ?? 280;
  const { categories, series } = props;

  useEffect(() => {
    const el = box.current;
    if (!el) return;
    setWidth(el.clientWidth);
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (canvas.current && width > 0) draw(canvas.current, width, height, categories, series, dark, hover);
  }, [width, height, categories, series, dark, hover]);

  const label = useMemo(() => series.map((s) => s.name).join(', '), [series]);
  const band = (width - GRID.left - GRID.right) / Math.max(1, categories.length);
  const onMove = (e: React.MouseEvent<HTMLCanvasElement>) => {
    const px = e.clientX - e.currentTarget.getBoundingClientRect().left - GRID.left;
    const i = Math.floor(px / band);
    setHover(px >= 0 && i >= 0 && i < categories.length ? i : null);
  };

  return (
    <div ref={box} style={{ position: 'relative', width: '100%', height }} data-testid={props.testId}>
      <canvas
        ref={canvas}
        role="img"
        aria-label={label}
        style={{ width: '100%', height, display: 'block' }}
        onMouseMove={onMove}
        onMouseLeave={() => setHover(null)}
      />
      {hover !== null && categories[hover] !== undefined ? (
        <div
          role="tooltip"
          style={{
            position: 'absolute',
            top: GRID.top,
            left: Math.min(Math.max(0, GRID.left + band * (hover + 1) + 8), Math.max(0, width - 180)),
            pointerEvents: 'none',
            padding: '6px 10px',
            borderRadius: 6,
            fontSize: 12,
            lineHeight: '18px',
            whiteSpace: 'nowrap',
            background: dark ? '#1f1f1f' : '#fff',
            color: dark ? 'rgba(255,255,255,0.85)' : 'rgba(0,0,0,0.88)',
            boxShadow: '0 6px 16px rgba(0,0,0,0.16)',
          }}
        >
          <div style={{ fontWeight: 600 }}>{categories[hover]}</div>
          {series.map((s, i) => (
            <div key={s.name}>
              <span
                style={{
                  display: 'inline-block',
                  width: 8,
                  height: 8,
                  borderRadius: 4,
                  marginRight: 6,
                  background: PALETTE[i % PALETTE.length],
                }}
              />
              {s.name}: {(s.data[hover] ?? 0).toLocaleString()}
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}

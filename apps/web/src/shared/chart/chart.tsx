import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import * as echarts from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef, useSyncExternalStore } from 'react';

// Only what the analysis charts draw: bars and lines on a grid, with tooltip and legend (tree-shaken ECharts).
echarts.use([BarChart, LineChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

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

/**
 * One chart of the analysis screens and the dashboard (Apache ECharts). This module is imported only by those pages,
 * so the library lands in their lazy chunks, never in what /login loads. Follows the light/dark preference.
 */
export function Chart(props: { categories: string[]; series: TChartSeries[]; height?: number; testId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const dark = useSyncExternalStore(subscribeTheme, () => document.documentElement.dataset.theme === 'dark');
  const { categories, series } = props;

  useEffect(() => {
    if (!ref.current) return;
    const chart = echarts.init(ref.current, dark ? 'dark' : undefined, { renderer: 'canvas' });
    chart.setOption({
      backgroundColor: 'transparent',
      tooltip: { trigger: 'axis' },
      legend: { top: 0 },
      grid: { left: 48, right: 16, top: 36, bottom: 28 },
      xAxis: { type: 'category', data: categories },
      yAxis: { type: 'value', minInterval: 1 },
      series: series.map((s) => ({ ...s, smooth: s.type === 'line' })),
    });
    const resize = () => chart.resize();
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      chart.dispose();
    };
  }, [categories, series, dark]);

  return <div ref={ref} style={{ width: '100%', height: props.height ?? 280 }} data-testid={props.testId} />;
}

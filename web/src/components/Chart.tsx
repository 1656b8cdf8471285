import { useEffect, useRef } from 'preact/hooks';
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Title,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';

Chart.register(BarController, BarElement, CategoryScale, Legend, LinearScale, LineController, LineElement, PointElement, Title, Tooltip);

/**
 * A chart.js chart on a canvas, with a text summary for screen readers (charts are pictures; the tables beside
 * them hold the same numbers).
 */
export function ChartView({
  config,
  label,
  height = 220,
  id,
}: {
  config: ChartConfiguration;
  label: string;
  height?: number;
  id?: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    if (!canvas.current) return;
    const chart = new Chart(canvas.current, {
      ...config,
      options: { responsive: true, maintainAspectRatio: false, animation: false, ...config.options },
    });
    return () => chart.destroy();
  }, [JSON.stringify(config.data), label]);
  return (
    <figure class="chart" style={{ height: `${height}px` }}>
      <canvas ref={canvas} role="img" aria-label={label} data-testid={id} />
    </figure>
  );
}

export const PALETTE = ['#1f5fbf', '#c2410c', '#15803d', '#7e22ce', '#b91c1c', '#0e7490', '#a16207', '#4d7c0f'];

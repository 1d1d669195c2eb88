import { h, svg } from '../../ui/dom.ts';
import { formatCount, formatDay } from '../../ui/format.ts';

// Plain SVG charts. They have no viewBox: positions along the width are percentages of the box and
// heights are pixels, so the charts fill a phone or a desktop column while their text keeps its size.

export interface Bar {
  label: string;
  values: number[];
}

const percent = (value: number, max: number) => `${((value / max) * 100).toFixed(2)}%`;

/**
 * Horizontal bars, one row per label, with the label above its bars so long product names fit on a
 * phone. Several values per row are drawn as a group (`series` names them, in the legend).
 */
export function barChart(title: string, rows: Bar[], series: string[] = []): HTMLElement {
  if (rows.length === 0) return chartBox(title, [h('p', { class: 'empty' }, 'データはまだありません。')]);
  const barHeight = 14;
  const rowHeight = 20 + barHeight * Math.max(1, series.length) + 8;
  // Bars stop short of the right edge, leaving room for their value.
  const max = Math.max(1, ...rows.flatMap((row) => row.values)) * 1.12;
  const chart = svg(
    'svg',
    {
      width: '100%',
      height: rows.length * rowHeight,
      role: 'img',
      'aria-label': `${title}: ${rows.map((row) => `${row.label} ${row.values.map(formatCount).join('・')}`).join('、')}`,
    },
    ...rows.flatMap((row, index) => {
      const top = index * rowHeight;
      return [
        svg('text', { x: 0, y: top + 14 }, row.label),
        ...row.values.map((value, n) => {
          const y = top + 20 + n * barHeight;
          return svg(
            'g',
            {},
            svg(
              'rect',
              { class: n === 0 ? 'bar' : 'bar-2', x: 0, y, width: value > 0 ? percent(value, max) : 0, height: barHeight - 3, rx: 2 },
              svg('title', {}, `${row.label}${series[n] ? `（${series[n]}）` : ''}: ${formatCount(value)}`),
            ),
            svg('text', { class: 'axis', x: percent(value, max), dx: 6, y: y + barHeight - 4 }, formatCount(value)),
          );
        }),
      ];
    }),
  );
  const legend =
    series.length > 1 ? h('p', { class: 'legend' }, ...series.map((name, n) => h('span', { class: n === 0 ? '' : 'second' }, name))) : null;
  return chartBox(title, legend ? [legend, chart] : [chart]);
}

/** One column per day, oldest first; today and every seventh day before it are labelled. */
export function dailyChart(title: string, days: { date: string; count: number }[]): HTMLElement {
  const height = 180;
  const axis = 20;
  const top = 18;
  const max = Math.max(1, ...days.map((day) => day.count));
  const slot = 100 / Math.max(1, days.length);
  const barTop = (count: number) => height - axis - ((height - axis - top) * count) / max;
  const chart = svg(
    'svg',
    {
      width: '100%',
      height,
      role: 'img',
      'aria-label': `${title}: ${days.map((day) => `${formatDay(day.date)} ${day.count}`).join('、')}`,
    },
    svg('line', { class: 'grid', x1: 0, x2: '100%', y1: top, y2: top }),
    svg('text', { class: 'axis', x: 0, y: top - 5 }, `${formatCount(max)} 件`),
    svg('line', { class: 'grid', x1: 0, x2: '100%', y1: height - axis, y2: height - axis }),
    ...days.map((day, index) => {
      const labelled = (days.length - 1 - index) % 7 === 0;
      return svg(
        'g',
        {},
        svg(
          'rect',
          {
            class: 'bar',
            x: `${(index + 0.1) * slot}%`,
            y: barTop(day.count),
            width: `${slot * 0.8}%`,
            height: height - axis - barTop(day.count),
          },
          svg('title', {}, `${formatDay(day.date)}: ${formatCount(day.count)} 件`),
        ),
        labelled &&
          svg(
            'text',
            {
              class: 'axis',
              x: `${(index + 0.5) * slot}%`,
              y: height - 4,
              'text-anchor': index === days.length - 1 ? 'end' : index === 0 ? 'start' : 'middle',
            },
            formatDay(day.date),
          ),
      );
    }),
  );
  return chartBox(title, [chart], true);
}

function chartBox(title: string, content: Node[], wide = false): HTMLElement {
  return h('section', { class: wide ? 'chart wide' : 'chart' }, h('h2', {}, title), ...content);
}

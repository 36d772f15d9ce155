/**
 * The dashboard's charts (Recharts). This module is only ever imported lazily (index.tsx), so
 * the chart library stays out of the sign-in page and the main bundle.
 */
import type { DashboardCampaigns, DashboardMembers, DashboardWeekly } from '@doanhoi/shared';
import { formatDate, formatNumber, formatPercent, formatVnd } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Empty, Grid, theme } from 'antd';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Cell,
  ComposedChart,
  LabelList,
  Legend,
  Line,
  ReferenceLine,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';

const ROW = 30;
const height = (n: number) => Math.max(220, n * ROW + 60);

function useChartTheme() {
  const { token } = theme.useToken();
  // Unit names take less room on a phone, so the bars keep most of the width.
  const wide = Grid.useBreakpoint().sm !== false;
  return {
    token,
    labelWidth: wide ? 150 : 92,
    axis: { fill: token.colorTextSecondary, fontSize: 12 },
    grid: token.colorBorderSecondary,
    tooltip: {
      contentStyle: { background: token.colorBgElevated, border: `1px solid ${token.colorBorder}`, color: token.colorText },
      labelStyle: { color: token.colorText },
    },
    legend: { color: token.colorText },
  };
}

const short = (s: string) => (s.length > 22 ? `${s.slice(0, 21)}…` : s);

export function MembersChart({ units, locale }: { units: DashboardMembers['units']; locale: string }) {
  const t = useTranslate();
  const c = useChartTheme();
  if (!units.length) return <Empty description={t('dashboard:charts.noUnits')} />;
  return (
    <div className="dashboard-chart-scroll">
      <ResponsiveContainer width="100%" height={height(units.length)}>
        <BarChart data={units} layout="vertical" margin={{ left: 8, right: 16 }}>
          <CartesianGrid stroke={c.grid} horizontal={false} />
          <XAxis type="number" tick={c.axis} tickFormatter={(v: number) => formatNumber(v, locale)} allowDecimals={false} />
          <YAxis type="category" dataKey="name" width={c.labelWidth} tick={c.axis} tickFormatter={short} interval={0} />
          <Tooltip {...c.tooltip} formatter={(v: number) => formatNumber(v, locale)} cursor={{ fill: c.token.colorFillSecondary }} />
          <Legend wrapperStyle={c.legend} />
          <Bar isAnimationActive={false} dataKey="members" name={t('dashboard:series.members')} fill={c.token.colorPrimary} />
          <Bar isAnimationActive={false} dataKey="doanVien" name={t('dashboard:series.doanVien')} fill={c.token.colorError} />
          <Bar isAnimationActive={false} dataKey="hoiVien" name={t('dashboard:series.hoiVien')} fill={c.token.colorSuccess} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function CollectionChart({ units, locale }: { units: DashboardCampaigns['units']; locale: string }) {
  const t = useTranslate();
  const c = useChartTheme();
  const rows = units.filter((u) => u.assigned > 0);
  if (!rows.length) return <Empty description={t('dashboard:charts.noCampaigns')} />;
  const color = (rate: number) => (rate >= 80 ? c.token.colorSuccess : rate >= 50 ? c.token.colorWarning : c.token.colorError);
  return (
    <div className="dashboard-chart-scroll">
      <ResponsiveContainer width="100%" height={height(rows.length)}>
        <BarChart data={rows} layout="vertical" margin={{ left: 8, right: 56 }}>
          <CartesianGrid stroke={c.grid} horizontal={false} />
          <XAxis type="number" domain={[0, 100]} tick={c.axis} tickFormatter={(v: number) => formatPercent(v, locale)} />
          <YAxis type="category" dataKey="name" width={c.labelWidth} tick={c.axis} tickFormatter={short} interval={0} />
          <Tooltip
            {...c.tooltip}
            cursor={{ fill: c.token.colorFillSecondary }}
            formatter={(v: number, _n, item) => {
              const u = item.payload as DashboardCampaigns['units'][number];
              return [
                t('dashboard:series.rateDetail', {
                  rate: formatPercent(v, locale),
                  collected: formatVnd(u.collected),
                  expected: formatVnd(u.expected),
                  paid: formatNumber(u.paid, locale),
                  assigned: formatNumber(u.assigned, locale),
                }),
                t('dashboard:series.rate'),
              ];
            }}
          />
          <Bar isAnimationActive={false} dataKey="rate" name={t('dashboard:series.rate')}>
            {rows.map((u) => (
              <Cell key={u.organizationId} fill={color(u.rate)} />
            ))}
            {/* Each bar says its rate, formatted like the cards and the table (vi-VN: 32,6%). */}
            <LabelList
              dataKey="rate"
              position="right"
              fill={c.token.colorText}
              fontSize={12}
              formatter={(v: number) => formatPercent(v, locale)}
            />
          </Bar>
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function WeeklyChart({ data, locale }: { data: DashboardWeekly; locale: string }) {
  const t = useTranslate();
  const c = useChartTheme();
  if (!data.weeks.length) return <Empty />;
  const compact = (v: number) => new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 }).format(v);
  return (
    <ResponsiveContainer width="100%" height={300}>
      <ComposedChart data={data.weeks} margin={{ left: 8, right: 16, top: 8 }}>
        <CartesianGrid stroke={c.grid} vertical={false} />
        <XAxis dataKey="weekStart" tick={c.axis} tickFormatter={(d: string) => formatDate(`${d}T12:00:00+07:00`).slice(0, 5)} />
        <YAxis tick={c.axis} tickFormatter={compact} width={56} domain={[0, (max: number) => Math.max(max, data.expected)]} />
        <Tooltip {...c.tooltip} labelFormatter={(d: string) => formatDate(`${d}T12:00:00+07:00`)} formatter={(v: number) => formatVnd(v)} />
        <Legend wrapperStyle={c.legend} />
        <Bar isAnimationActive={false} dataKey="collected" name={t('dashboard:series.collected')} fill={c.token.colorPrimary} />
        <Line
          isAnimationActive={false}
          dataKey="cumulative"
          name={t('dashboard:series.cumulative')}
          stroke={c.token.colorSuccess}
          strokeWidth={2}
          dot={false}
          type="linear"
        />
        <ReferenceLine
          y={data.expected}
          stroke={c.token.colorWarning}
          strokeDasharray="4 4"
          label={{ value: t('dashboard:series.expected'), fill: c.token.colorWarning, fontSize: 12, position: 'insideTopLeft' }}
        />
      </ComposedChart>
    </ResponsiveContainer>
  );
}

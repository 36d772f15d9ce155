import { formatNumber, formatVnd, LEAVE_REASONS, type MembershipReport, type ReportFigures } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Button, Table, Tooltip, Typography, type TableColumnsType } from 'antd';

interface Row {
  key: string;
  organizationId: number | null;
  name: string;
  code: string;
  figures: ReportFigures;
  drill: boolean;
}

const minority = (f: ReportFigures) => Object.entries(f.ethnicities).reduce((s, [code, e]) => (code && code !== '01' ? s + e.end : s), 0);

/**
 * The report's table: the unit's own members, each direct unit (its whole subtree; the name opens
 * that unit's report) and the total row, which is the sum of the rows above it.
 */
export function ReportTable({ report, onDrill }: { report: MembershipReport; onDrill: (id: number, name: string) => void }) {
  const t = useTranslate();
  const [self, ...units] = report.units;
  if (!self) return null;
  const rows: Row[] = [
    { key: 'own', organizationId: null, name: t('reports:ownRow', { name: self.name }), code: self.code, figures: self.own, drill: false },
    ...units.map((u) => ({
      key: String(u.organizationId),
      organizationId: u.organizationId,
      name: u.name,
      code: u.code,
      figures: u.total,
      drill: true,
    })),
  ];
  const n = (v: number) => formatNumber(v);
  const cols: { key: string; title: string; value: (f: ReportFigures) => number; money?: boolean; hint?: (f: ReportFigures) => string }[] =
    [
      { key: 'start', title: t('reports:cols.start'), value: (f) => f.start },
      { key: 'admitted', title: t('reports:cols.admitted'), value: (f) => f.admitted },
      { key: 'transferredIn', title: t('reports:cols.transferredIn'), value: (f) => f.transferredIn },
      { key: 'transferredOut', title: t('reports:cols.transferredOut'), value: (f) => f.transferredOut },
      {
        key: 'left',
        title: t('reports:cols.left'),
        value: (f) => f.left,
        hint: (f) =>
          LEAVE_REASONS.filter((r) => f.leftByReason[r])
            .map((r) => `${t(`reports:reasons.${r}`)}: ${f.leftByReason[r]}`)
            .join(', '),
      },
      { key: 'end', title: t('reports:cols.end'), value: (f) => f.end },
      { key: 'doan', title: t('reports:cols.doan'), value: (f) => f.groups.doan.end },
      { key: 'hoi', title: t('reports:cols.hoi'), value: (f) => f.groups.hoi.end },
      { key: 'female', title: t('reports:cols.female'), value: (f) => f.groups.female.end },
      { key: 'minority', title: t('reports:cols.minority'), value: minority },
      { key: 'collected', title: t('reports:cols.collected'), value: (f) => f.dues.collected, money: true },
      { key: 'kept', title: t('reports:cols.kept'), value: (f) => f.dues.kept, money: true },
      { key: 'remitted', title: t('reports:cols.remitted'), value: (f) => f.dues.remitted, money: true },
    ];
  const show = (c: (typeof cols)[number], f: ReportFigures) => {
    const text = c.money ? formatVnd(c.value(f)) : n(c.value(f));
    const hint = c.hint?.(f);
    return hint ? <Tooltip title={hint}>{text}</Tooltip> : text;
  };
  const columns: TableColumnsType<Row> = [
    {
      key: 'name',
      title: t('reports:cols.unit'),
      fixed: 'left',
      render: (_, r) =>
        r.drill ? (
          <Button
            type="link"
            className="link-button"
            onClick={() => onDrill(r.organizationId!, r.name)}
            data-testid={`report-drill-${r.code}`}
          >
            {r.name}
          </Button>
        ) : (
          <Typography.Text>{r.name}</Typography.Text>
        ),
    },
    ...cols.map((c) => ({
      key: c.key,
      title: c.title,
      align: 'right' as const,
      render: (_: unknown, r: Row) => <span data-col={c.key}>{show(c, r.figures)}</span>,
    })),
  ];
  return (
    <Table<Row>
      rowKey="key"
      size="small"
      bordered
      pagination={false}
      scroll={{ x: 'max-content' }}
      dataSource={rows}
      columns={columns}
      data-testid="report-table"
      onRow={(r) => ({ 'data-testid': `report-row-${r.key === 'own' ? 'own' : r.code}` }) as React.HTMLAttributes<HTMLElement>}
      summary={() => (
        <Table.Summary fixed>
          <Table.Summary.Row data-testid="report-total">
            <Table.Summary.Cell index={0}>
              <Typography.Text strong>{t('reports:total')}</Typography.Text>
            </Table.Summary.Cell>
            {cols.map((c, i) => (
              <Table.Summary.Cell key={c.key} index={i + 1} align="right">
                <Typography.Text strong>
                  <span data-col={c.key}>{show(c, self.total)}</span>
                </Typography.Text>
              </Table.Summary.Cell>
            ))}
          </Table.Summary.Row>
        </Table.Summary>
      )}
    />
  );
}

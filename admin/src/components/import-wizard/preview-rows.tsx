import { CheckCircleTwoTone, CloseCircleTwoTone, WarningTwoTone } from '@ant-design/icons';
import { fullName, type ImportColumn, type ImportRowResult } from '@doanhoi/shared';
import { useTranslate } from '@refinedev/core';
import { Descriptions, Grid, Space, Table, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { filledColumns, NAME_PAIR, useColumnLabel } from './columns';

function RowStatus({ row }: { row: ImportRowResult }) {
  const t = useTranslate();
  if (!row.validation.isValid) return <CloseCircleTwoTone twoToneColor="#ff4d4f" aria-label={t('imports:preview.statusError')} />;
  if (row.validation.warnings.length) return <WarningTwoTone twoToneColor="#faad14" aria-label={t('imports:preview.statusWarning')} />;
  return <CheckCircleTwoTone twoToneColor="#52c41a" aria-label={t('imports:preview.statusOk')} />;
}

const text = (r: ImportRowResult, key: string) => String(r.data[key] ?? '').trim();

/** An e-mail may break after its "@" rather than anywhere in the middle of a word. */
function Value({ value }: { value: string }) {
  const at = value.indexOf('@');
  if (at <= 0) return <>{value}</>;
  return (
    <>
      {value.slice(0, at + 1)}
      <wbr />
      {value.slice(at + 1)}
    </>
  );
}

/** One shown column: a column of ours, or the users file's family + given name read as one. */
interface Shown {
  key: string;
  title: string;
  value: (r: ImportRowResult) => string;
}

/** Data columns shown in the table on a wide screen (the rest are in the row's detail). */
const WIDE_COLUMNS = 4;

/** The reasons of a row: errors in red, warnings in amber, one per line. */
function Messages({ row }: { row: ImportRowResult }) {
  return (
    <Space direction="vertical" size={2}>
      {row.validation.errors.map((m) => (
        <Typography.Text key={`e${m}`} type="danger">
          {m}
        </Typography.Text>
      ))}
      {row.validation.warnings.map((m) => (
        <Typography.Text key={`w${m}`} type="warning">
          {m}
        </Typography.Text>
      ))}
    </Space>
  );
}

/**
 * The preview's rows (issue 26 item 1): fewer, wider columns that wrap (the row, its status, its
 * reasons, the code, the name, the e-mail, a unit code…) and every value of the row in its detail
 * (a click on the row). On a phone one cell holds the row's main values one under the other.
 */
export function PreviewRows({ rows, columns }: { rows: ImportRowResult[]; columns: readonly ImportColumn[] }) {
  const t = useTranslate();
  const label = useColumnLabel();
  const phone = Grid.useBreakpoint().md === false;
  const filled = filledColumns(columns, rows);
  const hasPair = NAME_PAIR.every((k) => filled.some((c) => c.key === k));
  const shown: Shown[] = [];
  for (const c of filled) {
    if (hasPair && c.key === 'givenName') continue;
    if (hasPair && c.key === 'familyName')
      shown.push({
        key: 'fullName',
        title: t('imports:preview.fullName'),
        value: (r) => fullName({ familyName: text(r, 'familyName'), givenName: text(r, 'givenName') }),
      });
    else shown.push({ key: c.key, title: label(c), value: (r) => text(r, c.key) });
  }
  const inTable = shown.slice(0, phone ? 0 : WIDE_COLUMNS);

  const detail = (r: ImportRowResult): ReactNode => (
    <Descriptions
      size="small"
      bordered
      className="phone-stack"
      column={{ xs: 1, sm: 1, md: 2, lg: 3 }}
      data-testid="import-row-detail"
      items={[
        ...filled.map((c) => ({ key: c.key, label: label(c), children: text(r, c.key) ? <Value value={text(r, c.key)} /> : '—' })),
        ...(r.validation.errors.length || r.validation.warnings.length
          ? [{ key: 'messages', label: t('import.preview.messages'), span: 'filled' as const, children: <Messages row={r} /> }]
          : []),
      ]}
    />
  );

  return (
    <Table<ImportRowResult>
      size="small"
      rowKey="rowIndex"
      dataSource={rows}
      pagination={{ pageSize: 10, hideOnSinglePage: true, showSizeChanger: false }}
      tableLayout="fixed"
      className="import-preview-table"
      data-testid="import-preview-table"
      expandable={{ expandedRowRender: detail, expandRowByClick: true, columnWidth: 40 }}
    >
      <Table.Column<ImportRowResult> title={t('import.preview.row')} dataIndex="rowIndex" width={phone ? 52 : 60} />
      <Table.Column<ImportRowResult>
        title={<span className="sr-only">{t('import.preview.status')}</span>}
        key="status"
        width={36}
        render={(_, r) => <RowStatus row={r} />}
      />
      {phone ? (
        <Table.Column<ImportRowResult>
          title={t('imports:preview.values')}
          key="values"
          render={(_, r) => (
            <Space direction="vertical" size={0} className="import-preview-values">
              {shown.slice(0, 3).map((s) => (
                <Typography.Text key={s.key} strong={s === shown[0]}>
                  <Value value={s.value(r)} />
                </Typography.Text>
              ))}
              <Messages row={r} />
            </Space>
          )}
        />
      ) : (
        <>
          {inTable.map((s) => (
            <Table.Column<ImportRowResult>
              key={s.key}
              title={s.title}
              width={s.key === 'email' ? '24%' : undefined}
              render={(_, r) => <Value value={s.value(r)} />}
            />
          ))}
          <Table.Column<ImportRowResult>
            title={t('import.preview.messages')}
            key="messages"
            width="26%"
            ellipsis={{ showTitle: false }}
            render={(_, r) => {
              const all = [...r.validation.errors, ...r.validation.warnings].join('; ');
              return all ? (
                <Tooltip title={all} placement="topLeft">
                  <Typography.Text type={r.validation.isValid ? 'warning' : 'danger'} data-testid="import-row-messages">
                    {all}
                  </Typography.Text>
                </Tooltip>
              ) : null;
            }}
          />
        </>
      )}
    </Table>
  );
}

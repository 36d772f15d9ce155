import { formatDate, type ClassDetail } from '@doanhoi/shared';
import { useOne, useTranslate, type BaseKey } from '@refinedev/core';
import { Descriptions, List, Modal, Spin, Typography } from 'antd';
import { StatusTag } from '../../components/catalogue/status-tag';

/** How many students the view dialog lists before "and N more" (000 §2). */
const STUDENTS_SHOWN = 5;

/** The view dialog: the class with its first students. */
export function ClassShowModal({ id, onClose }: { id: BaseKey | null; onClose: () => void }) {
  const t = useTranslate();
  const { result: c, query } = useOne<ClassDetail>({ resource: 'classes', id: id ?? '', queryOptions: { enabled: id !== null } });
  const rest = c ? c.students.length - STUDENTS_SHOWN : 0;
  return (
    <Modal open={id !== null} onCancel={onClose} footer={null} title={t('classes:show.title')} destroyOnHidden>
      {query.isLoading || !c ? (
        <Spin />
      ) : (
        <div data-testid="class-show">
          <Descriptions column={1} bordered size="small">
            <Descriptions.Item label={t('classes:fields.name')}>{c.name}</Descriptions.Item>
            <Descriptions.Item label={t('classes:fields.code')}>{c.code ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('classes:fields.year')}>{c.year}</Descriptions.Item>
            <Descriptions.Item label={t('classes:fields.department')}>{c.department?.name ?? '—'}</Descriptions.Item>
            <Descriptions.Item label={t('classes:fields.isActive')}>
              <StatusTag active={c.isActive} />
            </Descriptions.Item>
            <Descriptions.Item label={t('classes:fields.createdAt')}>{formatDate(c.createdAt)}</Descriptions.Item>
          </Descriptions>
          <Typography.Title level={5} className="section-title">
            {t('classes:show.students', { count: c.studentCount })}
          </Typography.Title>
          <List
            size="small"
            dataSource={c.students.slice(0, STUDENTS_SHOWN)}
            locale={{ emptyText: t('classes:show.noStudents') }}
            renderItem={(s) => (
              <List.Item>
                <List.Item.Meta title={s.fullName} description={`${s.code} · ${s.email}`} />
              </List.Item>
            )}
          />
          {rest > 0 && <Typography.Text type="secondary">{t('classes:show.more', { count: rest })}</Typography.Text>}
        </div>
      )}
    </Modal>
  );
}

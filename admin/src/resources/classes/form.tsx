import { createClassSchema, type Department } from '@doanhoi/shared';
import { useSelect } from '@refinedev/antd';
import { useTranslate } from '@refinedev/core';
import { Form, InputNumber, Select } from 'antd';
import { CatalogueFormModal, type CatalogueFormProps } from '../../components/catalogue/form-modal';
import { zodRule } from '../../components/form-rules';

const rule = zodRule(createClassSchema);

/** Create and edit share this modal form; the rules are the API's own schema (shared). */
export function ClassFormModal(props: CatalogueFormProps) {
  const t = useTranslate();
  const { selectProps } = useSelect<Department>({
    resource: 'departments',
    optionLabel: 'name',
    optionValue: 'id',
    pagination: { pageSize: 1000, mode: 'server' },
    filters: [{ field: 'isActive', operator: 'eq', value: true }],
    // The API searches name and code through `search` (the data provider's `q`).
    onSearch: (value) => [{ field: 'q', operator: 'contains', value }],
  });
  return (
    <CatalogueFormModal {...props} ns="classes" testId="class" rule={rule} createDefaults={{ year: new Date().getFullYear() }}>
      <Form.Item label={t('classes:fields.year')} name="year" rules={[rule]} required>
        <InputNumber className="full-width" />
      </Form.Item>
      <Form.Item label={t('classes:fields.department')} name="departmentId">
        <Select {...selectProps} allowClear placeholder={t('classes:fields.noDepartment')} />
      </Form.Item>
    </CatalogueFormModal>
  );
}

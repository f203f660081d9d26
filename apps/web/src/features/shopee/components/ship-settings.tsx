import type { TShopeeShipOptions, TShopeeShipSettings, TShopeeShop } from '@wms/contracts';
import { SHOPEE_PICKUP_SLOT_RULES } from '@wms/contracts';
import { Alert, App, Button, Drawer, Form, Input, Radio, Select, Space, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorField, errorText } from '../../../shared/forms/error-text';
import { useFormErrors } from '../../../shared/forms/use-form-errors';
import { useSaveShipSettings, useShipOptions } from '../api';

type TValues = {
  ship_mode: 'pickup' | 'dropoff' | 'unset';
  pickup_address_id: number | 'auto';
  pickup_slot: TShopeeShipSettings['pickup_slot'];
  pickup_after: string;
  dropoff_branches: TShopeeShipSettings['dropoff_branches'];
};

/** One branch per channel that asks for one (value: the chosen branches; a channel left on "first listed" is absent). */
function BranchPicker({
  channels,
  value = [],
  onChange,
}: {
  channels: TShopeeShipOptions['channels'];
  value?: TValues['dropoff_branches'];
  onChange?: (v: TValues['dropoff_branches']) => void;
}) {
  const { t } = useTranslation('shopee');
  const asking = channels.filter((c) => c.branches.length > 0);
  if (asking.length === 0)
    return <Typography.Text type="secondary">{t('shipSettings.noBranchChannels')}</Typography.Text>;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      {asking.map((c) => (
        <Space key={c.channel_id} wrap>
          <Typography.Text style={{ minWidth: 110, display: 'inline-block' }}>{c.channel_name}</Typography.Text>
          <Select
            style={{ minWidth: 320 }}
            data-testid={`shopee-branch-${c.channel_id}`}
            value={value.find((b) => b.channel_id === c.channel_id)?.branch_id ?? 'first'}
            options={[
              { value: 'first', label: t('shipSettings.firstBranch') },
              ...c.branches.map((b) => ({ value: b.branch_id, label: b.address })),
            ]}
            onChange={(v: number | 'first') =>
              onChange?.([
                ...value.filter((b) => b.channel_id !== c.channel_id),
                ...(v === 'first' ? [] : [{ channel_id: c.channel_id, branch_id: v }]),
              ])
            }
          />
        </Space>
      ))}
    </Space>
  );
}

/**
 * The shop's hand-over of Shopee-arranged parcels: pickup or drop-off, the pickup address and time-slot rule, the
 * drop-off branch per channel — the choices read from Shopee, checked again by the server on save.
 */
export function ShipSettingsDrawer({ shop, onClose }: { shop: TShopeeShop | null; onClose: () => void }) {
  const { t } = useTranslation(['shopee', 'common']);
  const { message } = App.useApp();
  const [form] = Form.useForm<TValues>();
  const { showError, clearError, formError } = useFormErrors(form);
  const options = useShipOptions(shop?.id ?? null);
  const save = useSaveShipSettings();
  const slot = Form.useWatch('pickup_slot', form);

  useEffect(() => {
    if (!shop) return;
    clearError();
    form.setFieldsValue({
      ship_mode: shop.ship_mode ?? 'unset',
      pickup_address_id: shop.ship_settings.pickup_address_id ?? 'auto',
      pickup_slot: shop.ship_settings.pickup_slot,
      pickup_after: shop.ship_settings.pickup_after ?? '',
      dropoff_branches: shop.ship_settings.dropoff_branches,
    });
  }, [shop, form, clearError]);

  const onSave = async (v: TValues) => {
    if (!shop) return;
    clearError();
    try {
      await save.mutateAsync({
        id: shop.id,
        ship_mode: v.ship_mode === 'unset' ? null : v.ship_mode,
        ship_settings: {
          pickup_address_id: v.pickup_address_id === 'auto' ? null : v.pickup_address_id,
          pickup_slot: v.pickup_slot,
          pickup_after: v.pickup_slot === 'after' ? v.pickup_after || null : null,
          dropoff_branches: v.dropoff_branches ?? [],
        },
      });
      void message.success(t('messages.shipModeSaved'));
      onClose();
    } catch (err) {
      // The server names the body's field (`ship_settings.pickup_after`): shown under that field of the form.
      const field = errorField(err)
        ?.replace(/^ship_settings\./, '')
        .split('.')[0];
      if (field && field in form.getFieldsValue(true))
        form.setFields([{ name: field as keyof TValues, errors: [errorText(err)] }]);
      else void showError(err);
    }
  };

  return (
    <Drawer
      open={!!shop}
      onClose={onClose}
      size="large"
      title={shop ? t('shipSettings.title', { name: shop.name }) : ''}
      data-testid="shopee-ship-settings"
      extra={
        <Button type="primary" loading={save.isPending} onClick={() => form.submit()} data-testid="shopee-ship-save">
          {t('common:actions.save')}
        </Button>
      }
    >
      <Typography.Paragraph type="secondary">{t('shipMode.hint')}</Typography.Paragraph>
      {formError}
      {options.isError ? (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={errorText(options.error)} />
      ) : null}
      <Spin spinning={options.isFetching}>
        <Form<TValues> form={form} layout="vertical" onFinish={(v) => void onSave(v)} onValuesChange={clearError}>
          <Form.Item name="ship_mode" label={t('fields.shipMode')}>
            <Radio.Group
              data-testid="shopee-settings-mode"
              options={(['unset', 'pickup', 'dropoff'] as const).map((m) => ({ value: m, label: t(`shipMode.${m}`) }))}
            />
          </Form.Item>
          <Typography.Title level={5}>{t('shipSettings.pickup')}</Typography.Title>
          <Form.Item name="pickup_address_id" label={t('shipSettings.address')} extra={t('shipSettings.addressHint')}>
            <Select
              data-testid="shopee-pickup-address"
              options={[
                { value: 'auto', label: t('shipSettings.autoAddress') },
                ...(options.data?.pickup_addresses ?? []).map((a) => ({
                  value: a.address_id,
                  label: `${a.address}${a.flags.includes('pickup_address') ? ` (${t('shipSettings.flagPickup')})` : a.flags.includes('default_address') ? ` (${t('shipSettings.flagDefault')})` : ''}`,
                })),
                // A saved address Shopee no longer lists stays visible (the server refuses it on the next save).
                ...(shop?.ship_settings.pickup_address_id &&
                !(options.data?.pickup_addresses ?? []).some(
                  (a) => a.address_id === shop.ship_settings.pickup_address_id,
                )
                  ? [{ value: shop.ship_settings.pickup_address_id, label: `#${shop.ship_settings.pickup_address_id}` }]
                  : []),
              ]}
            />
          </Form.Item>
          <Form.Item name="pickup_slot" label={t('shipSettings.slot')}>
            <Radio.Group data-testid="shopee-pickup-slot">
              <Space orientation="vertical">
                {SHOPEE_PICKUP_SLOT_RULES.map((r) => (
                  <Radio key={r} value={r}>
                    {t(`shipSettings.slots.${r}`)}
                  </Radio>
                ))}
              </Space>
            </Radio.Group>
          </Form.Item>
          {slot === 'after' ? (
            <Form.Item name="pickup_after" label={t('shipSettings.after')} extra={t('shipSettings.afterHint')}>
              <Input style={{ width: 120 }} placeholder="13:00" maxLength={5} data-testid="shopee-pickup-after" />
            </Form.Item>
          ) : null}
          <Typography.Title level={5}>{t('shipSettings.dropoff')}</Typography.Title>
          <Form.Item name="dropoff_branches" label={t('shipSettings.branch')} extra={t('shipSettings.branchHint')}>
            <BranchPicker channels={options.data?.channels ?? []} />
          </Form.Item>
        </Form>
      </Spin>
    </Drawer>
  );
}

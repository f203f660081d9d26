import { releaseChannelRoutes, type TBatchDetail, type TReleaseChannel } from '@wms/contracts';
import { App, Button, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteMutation } from '../../../../shared/api/route-query';
import { errorText } from '../../../../shared/forms/error-text';
import { warehouseReads } from '../../api';

/**
 * "Release next wave" on a saved channel: one press, the batch its rules make, then its pick lists (A4 / A5, in
 * walking order).
 */
export function ChannelReleaseButton({
  channel,
  size = 'large',
}: {
  channel: Pick<TReleaseChannel, 'id' | 'name'>;
  size?: 'small' | 'large';
}) {
  const { t } = useTranslation('warehouse');
  const { message } = App.useApp();
  const release = useRouteMutation(releaseChannelRoutes.releaseChannelWave, { invalidates: warehouseReads });
  const [done, setDone] = useState<TBatchDetail | null>(null);
  const go = async () => {
    try {
      const batch = await release.mutateAsync({ params: { id: channel.id } });
      setDone(batch);
      void message.success(
        t('channels.released', { number: batch.number, orders: batch.order_count, units: batch.unit_count }),
      );
    } catch (err) {
      void message.error(errorText(err));
    }
  };
  return (
    <>
      <Button
        type={size === 'large' ? 'primary' : 'link'}
        size={size}
        loading={release.isPending}
        onClick={() => void go()}
        data-testid={`channel-release-${channel.name}`}
      >
        {t('channels.release')}
      </Button>
      <Modal open={done !== null} title={channel.name} onCancel={() => setDone(null)} footer={null} destroyOnHidden>
        {done ? (
          <div data-testid="channel-wave-result">
            <Typography.Text strong data-testid="channel-wave-number">
              {t('channels.released', { number: done.number, orders: done.order_count, units: done.unit_count })}
            </Typography.Text>
            <Space style={{ marginTop: 8, display: 'flex' }} wrap>
              <Button onClick={() => window.open(`/deliver-print-pick-A4/${done.id}`, '_blank')}>
                {t('wave.printA4')}
              </Button>
              <Button onClick={() => window.open(`/deliver-print-pick/${done.id}?paper=A5`, '_blank')}>
                {t('wave.printA5')}
              </Button>
              <Button type="link" href="/deliver-opser">
                {t('wave.openBatches')}
              </Button>
            </Space>
          </div>
        ) : null}
      </Modal>
    </>
  );
}

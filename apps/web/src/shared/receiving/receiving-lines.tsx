import { Button, Card, DatePicker, Descriptions, InputNumber, type InputRef, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { type ComponentRef, type ReactNode, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../forms/error-text';
import { useHandheld } from '../handheld/handheld';
import { lookupLocations } from '../pickers/api';
import { LocationSelect } from '../pickers/location-select';
import { ScanInput } from '../ui/scan-input';

/** A line of a receipt being received: what inbound receipts and return receipts have in common. */
export interface TReceivingLine {
  id: string;
  line_no: number;
  product_number: string;
  product_name: string;
  /** Planned (inbound) or expected (returns) units. */
  quantity: number;
  /** The product has a shelf life: the line carries a lot (expiry date). */
  has_shelf_life: boolean;
  expiry_date: string | null;
  accepted_quantity: number | null;
  defective_quantity: number | null;
  good_quantity: number | null;
  location_id: string | null;
  location_code: string | null;
  defective_location_id: string | null;
  defective_location_code: string | null;
}

/** One line of a confirmation as both confirm routes take it: good units to a sellable location, defective to a defective one. */
export interface TReceivedLine {
  line_id: string;
  accepted_quantity: number;
  defective_quantity: number;
  good_quantity: number;
  location_id: string | null;
  defective_location_id: string | null;
  expiry_date?: string | null;
}

interface TEntry {
  accepted: number | null;
  defective: number | null;
  expiry: string | null;
  locationCode: string;
  locationId?: string;
  defectiveLocationId?: string;
}

const entriesOf = (lines: TReceivingLine[]): Record<string, TEntry> =>
  Object.fromEntries(
    lines.map((l) => [
      l.id,
      {
        accepted: l.accepted_quantity ?? l.quantity,
        defective: l.defective_quantity ?? 0,
        expiry: l.expiry_date,
        locationCode: l.location_code ?? '',
        locationId: l.location_id ?? undefined,
        defectiveLocationId: l.defective_location_id ?? undefined,
      },
    ]),
  );

/** What the entries say, per line; a location is sent only where units go to it. */
function receivedLines(lines: TReceivingLine[], entries: Record<string, TEntry>): TReceivedLine[] {
  return lines.map((l) => {
    const e = entries[l.id]!;
    // An emptied box is sent as missing (NaN → null) so the server names the field.
    const accepted = e.accepted ?? Number.NaN;
    const defective = e.defective ?? 0;
    const good = accepted - defective;
    return {
      line_id: l.id,
      accepted_quantity: accepted,
      defective_quantity: defective,
      good_quantity: good,
      location_id: good > 0 ? (e.locationId ?? null) : null,
      defective_location_id: defective > 0 ? (e.defectiveLocationId ?? null) : null,
      ...(l.has_shelf_life ? { expiry_date: e.expiry } : {}),
    };
  });
}

type TNumRef = ComponentRef<typeof InputNumber>;

/**
 * Receiving a receipt's lines (inbound and return confirmation), scanner-first: per line the accepted and defective
 * units and the location scanned for the good units; Enter walks accepted → defective → location → the next line,
 * and after the last line the confirm button. Good = accepted − defective; the defective units go to a defective
 * location. "All good / defective stock to" fills every line at once. Once confirmed, the lines show what was posted.
 * The entries start from `lines` and start again whenever the page hands over other lines (a reloaded receipt).
 */
export function ReceivingLines(props: {
  warehouseId: string;
  lines: TReceivingLine[];
  /** Whether the receipt can be confirmed now (its `actions` include `confirm`). */
  editable: boolean;
  /** Title of the planned / expected quantity column. */
  quantityTitle: string;
  submitLabel: string;
  submitting: boolean;
  onSubmit: (lines: TReceivedLine[]) => void;
  /** A scanned location that is not a sellable location of the warehouse (null clears it). */
  onProblem: (text: string | null) => void;
  /** Buttons beside (or, once confirmed, instead of) the confirm button: cancel the confirmation, print. */
  actions?: ReactNode;
  'data-testid'?: string;
  submitTestId?: string;
}) {
  const { t } = useTranslation('shared');
  const { lines, editable, onProblem } = props;
  const handheld = useHandheld();
  const [entries, setEntries] = useState(() => entriesOf(lines));
  const [shownLines, setShownLines] = useState(lines);
  if (shownLines !== lines) {
    setShownLines(lines);
    setEntries(entriesOf(lines));
  }
  const acceptedRefs = useRef<Record<string, TNumRef | null>>({});
  const defectiveRefs = useRef<Record<string, TNumRef | null>>({});
  const locationRefs = useRef<Record<string, InputRef | null>>({});
  const submitRef = useRef<HTMLButtonElement>(null);

  // A receipt to confirm opens with the cursor in its first line, ready for the scanner.
  // Focused once the lines are committed (their boxes exist), not on a timer.
  useLayoutEffect(() => {
    if (!editable) return;
    acceptedRefs.current[lines[0]?.id ?? '']?.focus();
  }, [lines, editable]);

  const set = (id: string, patch: Partial<TEntry>) => setEntries((s) => ({ ...s, [id]: { ...s[id]!, ...patch } }));
  const setAll = (patch: Partial<TEntry>) =>
    setEntries((s) => Object.fromEntries(Object.entries(s).map(([id, e]) => [id, { ...e, ...patch }])));

  const resolveLocation = async (lineId: string, code: string) => {
    let found: Awaited<ReturnType<typeof lookupLocations>>;
    try {
      found = (await lookupLocations(code, props.warehouseId)).filter((l) => l.kind === 'sellable');
    } catch (err) {
      onProblem(errorText(err));
      return false;
    }
    if (found.length === 0) {
      onProblem(t('receiving.locationNotFound', { code }));
      return false;
    }
    onProblem(null);
    set(lineId, { locationCode: found[0]!.code, locationId: found[0]!.id });
    return true;
  };

  const nextAfter = (lineId: string) => {
    const next = lines[lines.findIndex((l) => l.id === lineId) + 1];
    if (next) acceptedRefs.current[next.id]?.focus();
    else submitRef.current?.focus();
  };

  /** What each line shows per field: the table's cells on a desktop, the card's rows on a handheld. */
  const cells = {
    expiry: (l: TReceivingLine) =>
      editable && l.has_shelf_life ? (
        <DatePicker
          value={entries[l.id]?.expiry ? dayjs(entries[l.id]!.expiry) : null}
          onChange={(d) => set(l.id, { expiry: d ? d.format('YYYY-MM-DD') : null })}
          aria-label={t('receiving.expiry')}
        />
      ) : (
        (l.expiry_date ?? '—')
      ),
    accepted: (l: TReceivingLine) =>
      editable ? (
        <InputNumber
          ref={(el) => {
            acceptedRefs.current[l.id] = el;
          }}
          min={0}
          precision={0}
          value={entries[l.id]?.accepted}
          onChange={(v) => set(l.id, { accepted: typeof v === 'number' ? v : null })}
          onPressEnter={() => defectiveRefs.current[l.id]?.focus()}
          onFocus={(e) => e.target.select()}
          aria-label={t('receiving.accepted')}
          data-testid="confirm-accepted"
          style={{ width: 96 }}
        />
      ) : (
        (l.accepted_quantity ?? '—')
      ),
    defective: (l: TReceivingLine) =>
      editable ? (
        <InputNumber
          ref={(el) => {
            defectiveRefs.current[l.id] = el;
          }}
          min={0}
          precision={0}
          value={entries[l.id]?.defective}
          onChange={(v) => set(l.id, { defective: typeof v === 'number' ? v : null })}
          onPressEnter={() => locationRefs.current[l.id]?.focus()}
          onFocus={(e) => e.target.select()}
          aria-label={t('receiving.defective')}
          data-testid="confirm-defective"
          style={{ width: 96 }}
        />
      ) : (
        (l.defective_quantity ?? '—')
      ),
    good: (l: TReceivingLine) => {
      if (!editable) return l.good_quantity ?? '—';
      const e = entries[l.id];
      return <span data-testid="confirm-good">{(e?.accepted ?? 0) - (e?.defective ?? 0)}</span>;
    },
    difference: (l: TReceivingLine) => {
      const accepted = editable ? (entries[l.id]?.accepted ?? 0) : l.accepted_quantity;
      if (accepted === null) return '—';
      const diff = accepted - l.quantity;
      return diff === 0 ? '0' : <Typography.Text type="warning">{diff > 0 ? `+${diff}` : diff}</Typography.Text>;
    },
    location: (l: TReceivingLine) =>
      editable ? (
        <ScanInput
          ref={(el) => {
            locationRefs.current[l.id] = el;
          }}
          value={entries[l.id]?.locationCode ?? ''}
          onChange={(v) => set(l.id, { locationCode: v, locationId: undefined })}
          onScan={(c) =>
            resolveLocation(l.id, c).then((ok) => {
              if (ok) nextAfter(l.id);
              return ok;
            })
          }
          placeholder={t('receiving.scanLocation')}
          aria-label={t('receiving.location')}
          data-testid="confirm-location"
        />
      ) : (
        (l.location_code ?? '—')
      ),
    defectiveLocation: (l: TReceivingLine) =>
      editable ? (
        (entries[l.id]?.defective ?? 0) > 0 ? (
          <LocationSelect
            warehouseId={props.warehouseId}
            kind="defective"
            allowClear
            style={{ width: 180 }}
            value={entries[l.id]?.defectiveLocationId}
            onChange={(id) => set(l.id, { defectiveLocationId: id })}
            aria-label={t('receiving.defectiveLocation')}
          />
        ) : (
          '—'
        )
      ) : (
        (l.defective_location_code ?? '—')
      ),
  };

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }} data-testid={props['data-testid']}>
      {editable ? (
        <Space wrap>
          <span>{t('receiving.allGoodTo')}</span>
          <LocationSelect
            warehouseId={props.warehouseId}
            kind="sellable"
            style={{ width: 200 }}
            aria-label={t('receiving.allGoodTo')}
            data-testid="confirm-all-location"
            onChange={(id, location) => {
              if (!id) return;
              setAll({ locationId: id, locationCode: location?.code ?? '' });
              submitRef.current?.focus();
            }}
          />
          <span>{t('receiving.allDefectiveTo')}</span>
          <LocationSelect
            warehouseId={props.warehouseId}
            kind="defective"
            style={{ width: 200 }}
            aria-label={t('receiving.allDefectiveTo')}
            data-testid="confirm-all-defective-location"
            onChange={(id) => (id ? setAll({ defectiveLocationId: id }) : undefined)}
          />
        </Space>
      ) : null}
      {handheld ? (
        // A handheld: one card per line, the product in large type, the boxes stacked (the same boxes and keys).
        lines.map((l) => (
          <Card
            key={l.id}
            size="small"
            data-testid="receiving-line-card"
            title={`#${l.line_no}`}
            extra={
              <span>
                {props.quantityTitle} <strong>{l.quantity}</strong>
              </span>
            }
          >
            <div className="scan-step-target" style={{ fontSize: 24 }}>
              {l.product_number}
            </div>
            <Typography.Text type="secondary">{l.product_name}</Typography.Text>
            <Descriptions size="small" column={1} style={{ marginTop: 8 }}>
              {l.has_shelf_life ? (
                <Descriptions.Item label={t('receiving.expiry')}>{cells.expiry(l)}</Descriptions.Item>
              ) : null}
              <Descriptions.Item label={t('receiving.accepted')}>{cells.accepted(l)}</Descriptions.Item>
              <Descriptions.Item label={t('receiving.defective')}>{cells.defective(l)}</Descriptions.Item>
              <Descriptions.Item label={t('receiving.good')}>{cells.good(l)}</Descriptions.Item>
              <Descriptions.Item label={t('receiving.difference')}>{cells.difference(l)}</Descriptions.Item>
              <Descriptions.Item label={t('receiving.location')}>{cells.location(l)}</Descriptions.Item>
              {(editable ? (entries[l.id]?.defective ?? 0) > 0 : l.defective_location_code) ? (
                <Descriptions.Item label={t('receiving.defectiveLocation')}>
                  {cells.defectiveLocation(l)}
                </Descriptions.Item>
              ) : null}
            </Descriptions>
          </Card>
        ))
      ) : (
        <Table<TReceivingLine>
          rowKey="id"
          size="small"
          pagination={false}
          dataSource={lines}
          scroll={{ x: 'max-content' }}
          columns={[
            { title: '#', dataIndex: 'line_no', width: 48 },
            {
              title: t('receiving.product'),
              render: (_, l) => (
                <>
                  <div>{l.product_number}</div>
                  <Typography.Text type="secondary">{l.product_name}</Typography.Text>
                </>
              ),
            },
            { title: props.quantityTitle, dataIndex: 'quantity', align: 'right' },
            { title: t('receiving.expiry'), render: (_, l) => cells.expiry(l) },
            { title: t('receiving.accepted'), render: (_, l) => cells.accepted(l) },
            { title: t('receiving.defective'), render: (_, l) => cells.defective(l) },
            { title: t('receiving.good'), align: 'right', render: (_, l) => cells.good(l) },
            { title: t('receiving.difference'), align: 'right', render: (_, l) => cells.difference(l) },
            { title: t('receiving.location'), render: (_, l) => cells.location(l) },
            { title: t('receiving.defectiveLocation'), render: (_, l) => cells.defectiveLocation(l) },
          ]}
        />
      )}
      <Space wrap>
        {editable ? (
          <Button
            ref={submitRef}
            type="primary"
            loading={props.submitting}
            onClick={() => props.onSubmit(receivedLines(lines, entries))}
            data-testid={props.submitTestId ?? 'confirm-submit'}
          >
            {props.submitLabel}
          </Button>
        ) : null}
        {props.actions}
      </Space>
    </Space>
  );
}

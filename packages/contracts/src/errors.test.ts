import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, errorMessage, FIELD_LABELS, fieldLabel, LANGUAGES, pickLanguage } from './errors';

describe('error catalogue', () => {
  it('has a message in every language for every code and field', () => {
    for (const [code, entry] of Object.entries(ERROR_CATALOGUE)) {
      for (const lang of LANGUAGES) expect(entry[lang], `${code} ${lang}`).toBeTruthy();
    }
    for (const [field, labels] of Object.entries(FIELD_LABELS)) {
      for (const lang of LANGUAGES) expect(labels[lang], `${field} ${lang}`).toBeTruthy();
    }
  });

  it('names the field in its label', () => {
    expect(errorMessage('REQUIRED_FIELD', 'en', { field: 'postcode' })).toBe('Postal code is required');
    expect(errorMessage('REQUIRED_FIELD', 'zh-TW', { field: 'address' })).toBe('地址為必填');
    expect(errorMessage('REQUIRED_FIELD', 'ja', { field: 'address' })).toBe('住所は必須です');
    expect(errorMessage('REQUIRED_FIELD', 'zh-TW', { field: 'code' })).not.toContain(' ');
    expect(errorMessage('REQUIRED_FIELD', 'zh-TW', { field: 'unknown_x' })).toBe('unknown_x 為必填');
    expect(errorMessage('INVALID_FIELD', 'ja', { field: 'unknown_x' })).toBe('unknown_x の形式が正しくありません');
  });

  it('names a nested field by its last named segment, and an array line by its number (from 1)', () => {
    expect(errorMessage('INVALID_FIELD', 'zh-TW', { field: 'lines.0.quantity' })).toBe('第 1 行的數量格式不正確');
    expect(errorMessage('INVALID_FIELD', 'ja', { field: 'lines.0.quantity' })).toBe(
      '1 行目の数量の形式が正しくありません',
    );
    expect(errorMessage('INVALID_FIELD', 'en', { field: 'lines.0.quantity' })).toBe('Quantity on line 1 is not valid');
    expect(errorMessage('REQUIRED_FIELD', 'en', { field: 'lines.11.product_id' })).toBe(
      'Product on line 12 is required',
    );
    expect(errorMessage('REQUIRED_FIELD', 'zh-TW', { field: 'mapping.platform_order_number' })).toBe(
      '平台訂單編號為必填',
    );
    expect(errorMessage('REQUIRED_FIELD', 'ja', { field: 'mapping.platform_order_number' })).toBe(
      'プラットフォーム注文番号は必須です',
    );
    // An element of a list of ids is named by its list.
    expect(fieldLabel('location_ids.3', 'en')).toBe('Storage locations');
    // Unknown names stay as they are (a path too), never a blank.
    expect(fieldLabel('foo.0.bar', 'en')).toBe('bar on line 1');
    expect(fieldLabel('constructor', 'en')).toBe('constructor');
    expect(fieldLabel('a.__proto__', 'ja')).toBe('__proto__');
  });

  it('names the query and path fields every list and detail call takes', () => {
    expect(errorMessage('INVALID_FIELD', 'en', { field: 'page_size' })).toBe('Page size is not valid');
    expect(errorMessage('INVALID_FIELD', 'zh-TW', { field: 'page_size' })).toBe('每頁筆數格式不正確');
    expect(errorMessage('INVALID_FIELD', 'ja', { field: 'id' })).toBe('ID の形式が正しくありません');
    expect(errorMessage('INVALID_FIELD', 'en', { field: 'page' })).toBe('Page is not valid');
  });

  it('agrees the English verb with a plural field name', () => {
    expect(errorMessage('REQUIRED_FIELD', 'en', { field: 'location_ids' })).toBe('Storage locations are required');
    expect(errorMessage('INVALID_FIELD', 'en', { field: 'lines' })).toBe('Lines are not valid');
    expect(errorMessage('DUPLICATE_VALUE', 'en', { field: 'product_ids' })).toBe('Products already exist');
    expect(errorMessage('INVALID_FIELD', 'en', { field: 'lines.0.components' })).toBe(
      'Components on line 1 are not valid',
    );
    expect(errorMessage('INVALID_FIELD', 'en', { field: 'quantity' })).toBe('Quantity is not valid');
    // Other languages have no number agreement to make.
    expect(errorMessage('INVALID_FIELD', 'zh-TW', { field: 'lines' })).toBe('明細格式不正確');
  });

  it('picks the language from Accept-Language, default zh-TW', () => {
    expect(pickLanguage(undefined)).toBe('zh-TW');
    expect(pickLanguage('en-US,en;q=0.9')).toBe('en');
    expect(pickLanguage('fr;q=1, ja;q=0.8')).toBe('ja');
    expect(pickLanguage('zh-CN')).toBe('zh-TW');
    expect(pickLanguage('de')).toBe('zh-TW');
  });
});

import { describe, expect, it } from 'vitest';
import { ERROR_CATALOGUE, errorMessage, FIELD_LABELS, LANGUAGES, pickLanguage } from './errors';

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

  it('picks the language from Accept-Language, default zh-TW', () => {
    expect(pickLanguage(undefined)).toBe('zh-TW');
    expect(pickLanguage('en-US,en;q=0.9')).toBe('en');
    expect(pickLanguage('fr;q=1, ja;q=0.8')).toBe('ja');
    expect(pickLanguage('zh-CN')).toBe('zh-TW');
    expect(pickLanguage('de')).toBe('zh-TW');
  });
});

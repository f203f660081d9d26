/**
 * TapPay's TPDirect card fields. With an app id from the operator's settings the real SDK is loaded from TapPay's
 * site at run time (its fields are iframes: the card number stays with TapPay, we only get a one-time prime).
 * Without one (development, tests) a SANDBOX STUB stands in: it reads the plain inputs of the stub form and answers
 * TapPay's published sandbox test prime — never a real charge — or, for a card number ending in 0002, a prime the
 * local fake TapPay declines. The card number is never sent anywhere by either.
 */

export const TAPPAY_SDK_URL = 'https://js.tappaysdk.com/sdk/tpdirect/v5.19.2';
export const SANDBOX_TEST_PRIME = 'test_3a2fb2b7e892b914a03c95dd4dd5dc7970c908df67a49527c0a648b2bc9';
export const STUB_DECLINED_PRIME = 'test_declined_card_prime';

export interface TPrimeResult {
  status: number;
  msg: string;
  card?: { prime: string; lastfour?: string };
}

export interface TTPDirect {
  setupSDK(appId: number, appKey: string, serverType: 'sandbox' | 'production'): void;
  card: {
    setup(config: {
      fields: Record<'number' | 'expirationDate' | 'ccv', { element: string; placeholder?: string }>;
    }): void;
    getPrime(callback: (result: TPrimeResult) => void): void;
  };
}

declare global {
  interface Window {
    TPDirect?: TTPDirect;
  }
}

export function loadTapPaySdk(): Promise<TTPDirect> {
  if (window.TPDirect) return Promise.resolve(window.TPDirect);
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = TAPPAY_SDK_URL;
    script.onload = () => (window.TPDirect ? resolve(window.TPDirect) : reject(new Error('TPDirect missing')));
    script.onerror = () => reject(new Error('TPDirect failed to load'));
    document.head.appendChild(script);
  });
}

/** The sandbox stub: same calls as TPDirect, reading the stub form's inputs inside the field elements. */
export function createStubTPDirect(): TTPDirect {
  let fields: Record<string, { element: string }> = {};
  const readField = (key: string) =>
    (document.querySelector(`${fields[key]?.element ?? ''} input`) as HTMLInputElement | null)?.value.replace(
      /\s/g,
      '',
    ) ?? '';
  return {
    setupSDK() {},
    card: {
      setup(config) {
        fields = config.fields;
      },
      getPrime(callback) {
        const number = readField('number');
        const expiry = readField('expirationDate');
        const ccv = readField('ccv');
        if (!/^\d{13,19}$/.test(number) || !/^\d{2}\/?\d{2}$/.test(expiry) || !/^\d{3,4}$/.test(ccv)) {
          callback({ status: -1, msg: 'fields invalid' });
          return;
        }
        const prime = number.endsWith('0002') ? STUB_DECLINED_PRIME : SANDBOX_TEST_PRIME;
        setTimeout(() => callback({ status: 0, msg: 'Success', card: { prime, lastfour: number.slice(-4) } }), 50);
      },
    },
  };
}

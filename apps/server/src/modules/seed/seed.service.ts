import type { TConfig } from '../../config';
import type { Db } from '../../db/client';
import { withTx } from '../../db/tx';
import { generatePassword, hashPassword } from '../../platform/crypto';
import * as accountRepo from '../account';
import * as authRepo from '../auth';
import { insertProvider } from '../partners';
import { insertWarehouse } from '../warehouse';

export interface TSeedResult {
  seeded: boolean;
  logins: Array<{ role: 'CUSTOMER' | 'EMPLOYEE'; email: string; password: string | null }>;
}

/**
 * Seed an empty database: the employee account always; with SEED_DEMO a demo seller company with one CUSTOMER
 * user and one warehouse. Passwords come from env, else are generated and returned once (never a known default).
 */
export async function seedDemoData(db: Db, config: TConfig): Promise<TSeedResult> {
  if (await accountRepo.hasAnyUser(db)) return { seeded: false, logins: [] };
  const employeePassword = config.demo.employeePassword ?? generatePassword();
  const customerPassword = config.demo.customerPassword ?? generatePassword();
  const [employeeHash, customerHash] = await Promise.all([
    hashPassword(employeePassword),
    hashPassword(customerPassword),
  ]);
  const logins: TSeedResult['logins'] = [];
  // Without the demo (production), no account with a generated password: the employee only when its password is given.
  if (!config.seedDemo && !config.demo.employeePassword) return { seeded: false, logins: [] };
  await withTx(db, async (tx) => {
    if (await authRepo.findUserByEmail(tx, config.demo.employeeEmail)) return;
    await accountRepo.insertUser(tx, {
      email: config.demo.employeeEmail.toLowerCase(),
      name: 'Warehouse staff',
      role: 'EMPLOYEE',
      password_hash: employeeHash,
    });
    logins.push({
      role: 'EMPLOYEE',
      email: config.demo.employeeEmail,
      password: config.demo.employeePassword ? null : employeePassword,
    });
    if (!config.seedDemo) return;
    const customer = await accountRepo.insertCustomer(tx, {
      name: '示範電商股份有限公司',
      tax_id: '04595257',
      invoice_title: '示範電商股份有限公司',
      invoice_address: '臺北市信義區市府路 1 號',
      phone: '02-2720-8889',
      website: 'https://demo.example.com',
    });
    await accountRepo.insertUser(tx, {
      customer_id: customer.id,
      email: config.demo.customerEmail.toLowerCase(),
      name: 'Demo seller',
      role: 'CUSTOMER',
      password_hash: customerHash,
    });
    await insertWarehouse(tx, { customer_id: customer.id, code: 'WH01', name: '主倉', address: '桃園市大園區' });
    // A logistics provider with a sender that meets ECPay's and T-cat's rules (the /express-provider form requires it
    // with a carrier API): choosing a carrier API and typing its keys is all the demo seller has left to do.
    await insertProvider(tx, {
      customer_id: customer.id,
      code: 'TCAT',
      name: '黑貓宅急便',
      temperature_code: '0001',
      specification_code: '0001',
      sender_name: '示範倉庫',
      sender_phone: '0227208889',
      sender_postcode: '337',
      sender_address: '桃園市大園區航勤北路1號',
    });
    logins.push({
      role: 'CUSTOMER',
      email: config.demo.customerEmail,
      password: config.demo.customerPassword ? null : customerPassword,
    });
  });
  return { seeded: logins.length > 0, logins };
}

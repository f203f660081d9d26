import { ZEmail, ZLoginRequest, ZOtp } from '@wms/contracts';
import { zodRule } from '../../../../shared/forms/zod-rule';

/** The login page's field rules (the contracts' schemas): loaded when a field first validates (lazyRule). */
export const loginRules = {
  email: zodRule('email', ZEmail),
  password: zodRule('password', ZLoginRequest.shape.password),
  otp: zodRule('otp', ZOtp),
};

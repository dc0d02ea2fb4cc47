import type {
  CaptchaPurpose,
  CaptchaSent,
  CaptchaTypes,
  ImageCaptcha,
  LoginBody,
  LoginPolicy,
  RegisterBody,
  RegisterInfo,
  ResetPassBody,
  Session,
  UserWithToken,
} from '@rampart/contracts';
import type { HttpClient, RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useLoaded } from '../../shared/http/useLoaded.ts';
import { dropEmpty } from '../../shared/util/dropEmpty.ts';

/** The calls of sign-in, registration and password reset (spec §7, auth and common). */
export const authApi = (http: HttpClient) => ({
  loginPolicy: (account: string, options?: RequestOptions) =>
    http.get<LoginPolicy>('/v1/user/login-policy', { ...options, query: { account } }),
  imageCaptcha: () => http.get<ImageCaptcha>('/v1/common/captcha'),
  login: (body: LoginBody, options?: RequestOptions) => http.post<UserWithToken>('/v1/login', dropEmpty(body), options),
  register: (body: RegisterBody) => http.post<UserWithToken>('/v1/user', dropEmpty(body)),
  resetPassword: (body: ResetPassBody) => http.post<null>('/v1/reset-pass', dropEmpty(body)),
  sendEmailCode: (email: string, purpose: CaptchaPurpose) =>
    http.post<CaptchaSent>('/v1/email-captcha', { email, purpose }),
  sendPhoneCode: (phone: string, purpose: CaptchaPurpose) =>
    http.post<CaptchaSent>('/v1/phone-captcha', { phone, purpose }),
  session: () => http.get<Session>('/v1/common/auth'),
  signOut: (options?: RequestOptions) => http.delete<null>('/v1/common/auth', options),
});

export const useAuthApi = () => authApi(useHttp());

export const useRegisterInfo = () => {
  const http = useHttp();
  return useLoaded('common/register-info', () => http.get<RegisterInfo>('/v1/common/register-info'));
};

export const useCaptchaTypes = () => {
  const http = useHttp();
  return useLoaded('common/captcha-type', () => http.get<CaptchaTypes>('/v1/common/captcha-type'));
};

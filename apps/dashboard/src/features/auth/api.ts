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
  SysInfo,
  UserWithToken,
} from '@rampart/contracts';
import { useQuery } from '@tanstack/react-query';
import type { HttpClient, RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
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

const FOREVER = Number.POSITIVE_INFINITY;

export const useSysInfo = () => {
  const http = useHttp();
  return useQuery({
    queryKey: ['common', 'sysinfo'],
    queryFn: () => http.get<SysInfo>('/v1/common/sysinfo'),
    staleTime: FOREVER,
  });
};

export const useRegisterInfo = () => {
  const http = useHttp();
  return useQuery({
    queryKey: ['common', 'register-info'],
    queryFn: () => http.get<RegisterInfo>('/v1/common/register-info'),
  });
};

export const useCaptchaTypes = () => {
  const http = useHttp();
  return useQuery({
    queryKey: ['common', 'captcha-type'],
    queryFn: () => http.get<CaptchaTypes>('/v1/common/captcha-type'),
  });
};

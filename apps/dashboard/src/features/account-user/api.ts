import type { CaptchaSent, UpdateProfileBody, User } from '@rampart/contracts';
import type { RequestOptions } from '../../shared/http/client.ts';
import { useHttp } from '../../shared/http/HttpProvider.tsx';
import { useSession } from '../../shared/session/session.ts';

export type { UpdateProfileBody };

/** PUT /v1/user and the codes a new email or phone needs; the stored user follows each change. */
export const useProfileApi = () => {
  const http = useHttp();
  const setUser = useSession((state) => state.setUser);
  return {
    update: async (body: UpdateProfileBody, options?: RequestOptions) => {
      const user = await http.put<User>('/v1/user', body, options);
      setUser(user);
      return user;
    },
    sendEmailCode: (email: string) => http.post<CaptchaSent>('/v1/user/email-captcha', { email }),
    sendPhoneCode: (phone: string) => http.post<CaptchaSent>('/v1/user/phone-captcha', { phone }),
  };
};

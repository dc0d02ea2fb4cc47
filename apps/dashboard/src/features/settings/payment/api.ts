import type { WxpayPlatformCertList } from '@rampart/contracts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { RequestOptions } from '../../../shared/http/client.ts';
import { useHttp } from '../../../shared/http/HttpProvider.tsx';
import type { PaymentProviderName, PaymentSettings } from './paymentFields.ts';

export const paymentSettingsPath = (provider: PaymentProviderName) => `/v1/configs/global-0-payment-${provider}`;
const keyOf = (provider: PaymentProviderName) => ['configs', `global-0-payment-${provider}`] as const;

/** GET: a provider's payment settings, secrets masked once saved. */
export const usePaymentSettings = (provider: PaymentProviderName) => {
  const http = useHttp();
  return useQuery({
    queryKey: keyOf(provider),
    queryFn: ({ signal }) => http.get<PaymentSettings>(paymentSettingsPath(provider), { signal }),
  });
};

export const usePaymentActions = (provider: PaymentProviderName) => {
  const http = useHttp();
  const queryClient = useQueryClient();
  const path = paymentSettingsPath(provider);
  const keep = (settings: PaymentSettings) => {
    queryClient.setQueryData(keyOf(provider), settings);
    return settings;
  };
  return {
    /** PUT: the saved settings come back, secrets masked. */
    save: async (settings: PaymentSettings, options?: Pick<RequestOptions, 'onError'>) =>
      keep(await http.put<PaymentSettings>(path, settings, options)),
    /** DELETE: the channel is off and its settings back to the defaults. */
    reset: async () => keep(await http.delete<PaymentSettings>(path)),
  };
};

const certificatesPath = `${paymentSettingsPath('wxpay')}/certificates`;
const certificatesKey = ['configs', 'global-0-payment-wxpay', 'certificates'] as const;

/** GET: the WeChat Pay platform certificates notifications are verified with (serial and validity only). */
export const useWxpayCertificates = (enabled: boolean) => {
  const http = useHttp();
  return useQuery({
    queryKey: certificatesKey,
    enabled,
    queryFn: ({ signal }) => http.get<WxpayPlatformCertList>(certificatesPath, { signal }),
  });
};

/** POST refresh: downloads them now; the list comes back. */
export const useWxpayCertificatesRefresh = () => {
  const http = useHttp();
  const queryClient = useQueryClient();
  return async () => {
    const list = await http.post<WxpayPlatformCertList>(`${certificatesPath}/refresh`);
    queryClient.setQueryData(certificatesKey, list);
    return list;
  };
};

/** After the settings are saved (which downloads the certificates), the list is read again. */
export const useForgetWxpayCertificates = () => {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: certificatesKey });
};

import { useLocales } from '../../../shared/i18n/useLocales.ts';
import { PROTECTION_LOCALES } from '../locales/bundle.ts';
import { DefaultGroupCard } from './DefaultGroupCard.tsx';
import { WafDefaultsCard } from './WafDefaultsCard.tsx';

/** Spec §2 /config/waf (admins): the platform's WAF defaults and the default system rule group. */
export const Component = () => {
  useLocales(PROTECTION_LOCALES);
  return (
    <section data-testid="waf-config-page" style={{ display: 'grid', gap: 16 }}>
      <WafDefaultsCard />
      <DefaultGroupCard />
    </section>
  );
};

import Breadcrumb from 'antd/es/breadcrumb';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMatches } from 'react-router';
import { deepestHandle } from '../../app/routeHandle.ts';
import { MenuIcon } from '../menu/MenuIcon.tsx';

/** Spec §2: the breadcrumb hides when the header width minus this is not larger than its own width. */
export const BREADCRUMB_RESERVED_WIDTH = 560;

export const breadcrumbFits = (headerWidth: number, breadcrumbWidth: number): boolean =>
  headerWidth - BREADCRUMB_RESERVED_WIDTH > breadcrumbWidth;

/** The group and page of the current route, from its route records. */
export const HeaderBreadcrumb = ({ headerWidth, showIcons }: { headerWidth: number; showIcons: boolean }) => {
  const { t } = useTranslation();
  const handle = deepestHandle(useMatches());
  const trail = handle?.trail ?? (handle ? [{ title: handle.title, icon: handle.icon }] : []);
  const ref = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(0);

  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(element.scrollWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // Measured while hidden too (out of the flow), so it can come back when the header grows.
  const fits = breadcrumbFits(headerWidth, width);
  return (
    <nav
      ref={ref}
      aria-label={t('layout.header.breadcrumb')}
      aria-hidden={!fits}
      data-testid="breadcrumb"
      className={fits ? 'rp-breadcrumb' : 'rp-breadcrumb rp-breadcrumb-limited'}
    >
      <Breadcrumb
        items={trail.map((step) => ({
          title: (
            <span>
              {showIcons && step.icon && <MenuIcon icon={step.icon} />} {t(step.title)}
            </span>
          ),
        }))}
      />
    </nav>
  );
};

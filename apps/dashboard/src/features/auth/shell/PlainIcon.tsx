import type { IconDefinition } from '@ant-design/icons-svg/es/types';

interface IconNode {
  tag: string;
  attrs: Record<string, string>;
  children?: IconNode[];
}

/** An antd icon's SVG drawn without the @ant-design/icons runtime (the login page loads no antd code). */
export const PlainIcon = ({ icon }: { icon: IconDefinition }) => {
  if (typeof icon.icon === 'function') return null;
  const svg = icon.icon as IconNode;
  return (
    <svg aria-hidden="true" viewBox={svg.attrs.viewBox} width="1em" height="1em" fill="currentColor">
      {svg.children?.map((child) =>
        child.tag === 'path' && child.attrs.d ? <path key={child.attrs.d} d={child.attrs.d} /> : null,
      )}
    </svg>
  );
};

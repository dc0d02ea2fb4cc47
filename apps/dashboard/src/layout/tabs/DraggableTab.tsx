import Dropdown from 'antd/es/dropdown';
import type { MenuProps } from 'antd/es/menu';
import { cloneElement, type DragEvent, type ReactElement } from 'react';

const TAB_MIME = 'application/x-rampart-tab';

interface DraggableTabProps {
  /** The tab node antd renders: a div that takes extra DOM props. */
  node: ReactElement;
  tabKey: string;
  menu: MenuProps;
  draggable: boolean;
  onMove: (from: string, to: string) => void;
}

/** One tab of the bar: its close menu on right-click, and native HTML5 drag to reorder. */
export const DraggableTab = ({ node, tabKey, menu, draggable, onMove }: DraggableTabProps) => {
  const dragProps = draggable
    ? {
        draggable: true,
        onDragStart: (event: DragEvent) => {
          event.dataTransfer.setData(TAB_MIME, tabKey);
          event.dataTransfer.effectAllowed = 'move';
        },
        onDragOver: (event: DragEvent) => {
          if (event.dataTransfer.types.includes(TAB_MIME)) event.preventDefault();
        },
        onDrop: (event: DragEvent) => {
          const from = event.dataTransfer.getData(TAB_MIME);
          if (!from) return;
          event.preventDefault();
          onMove(from, tabKey);
        },
      }
    : {};
  return (
    <Dropdown menu={menu} trigger={['contextMenu']}>
      {cloneElement(node as ReactElement<Record<string, unknown>>, { 'data-testid': `tab:${tabKey}`, ...dragProps })}
    </Dropdown>
  );
};

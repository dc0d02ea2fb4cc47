import type { announcementsEnUS } from './en-US.ts';

export const announcementsZhCN: typeof announcementsEnUS = {
  announcements: {
    add: '新建公告',
    edit: '编辑',
    delete: '删除',
    confirmDelete: '确定删除这条公告吗？它会立即从登录页消失。',
    deleted: '公告已删除',
    created: '公告已发布，并已发送给 {{count}} 位用户',
    saved: '公告已保存',
    confirm: '确定',
    cancel: '取消',
    save: '保存',
    activeOnly: '只看正在展示的',
    column: {
      title: '标题',
      period: '展示时间',
      state: '状态',
      recipients: '发送人数',
      actions: '操作',
    },
    state: { active: '展示中', inactive: '未展示' },
    form: {
      createTitle: '新建公告',
      editTitle: '编辑公告',
      titleZh: '标题（中文）',
      textZh: '内容（中文）',
      titleEn: '标题（英文）',
      textEn: '内容（英文）',
      startsAt: '开始展示',
      endsAt: '结束展示',
      required: '必填',
      sendNote: '发布后也会作为消息发送给所有用户。',
    },
  },
};

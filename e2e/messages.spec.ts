import { describe, expect, it } from 'vitest';
import { adminToken, callApi } from './support/api.ts';
import { customerOf } from './support/edge.ts';
import { confirmPopup, openDialog } from './support/overlays.ts';
import { useSuite } from './support/suite.ts';

interface Inbox {
  list: { id: number; title: string; read: boolean; type: string }[];
  total: number;
  unread: number;
}

describe('messages, subscriptions and announcements', () => {
  const suite = useSuite();
  const customer = customerOf(suite, 'mona');

  const admin = async () => {
    const { baseUrl, adminPassword } = suite.master();
    return adminToken(baseUrl, adminPassword);
  };
  const sendTo = async (userId: number, title: string, body: string) =>
    callApi(suite.master().baseUrl, 'POST', '/v1/messages', {
      token: await admin(),
      body: { target: 'user', user_id: userId, title, body },
    });
  const inbox = async (token: string) =>
    callApi<Inbox>(suite.master().baseUrl, 'GET', '/v1/messages?limit=100', { token });

  it('counts unread messages on the bell, opens one read, marks the rest read and deletes one', async () => {
    const { id, token } = await customer();
    await sendTo(id, 'Maintenance tonight', 'The console pauses at 22:00 for ten minutes.');
    await sendTo(id, 'Invoice ready', 'Your November invoice is ready.');
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/account/user'));
    const bell = page.getByTestId('notice-bell');
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Messages (2)');
    await bell.click();
    await page.getByTestId('account-message-page').waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/account/message');

    const list = page.getByTestId('message-list');
    const drawer = await openDialog(page, list.getByRole('link', { name: 'Maintenance tonight' }));
    await drawer.getByText('The console pauses at 22:00 for ten minutes.').waitFor();
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Messages (1)');
    await drawer.getByRole('button', { name: 'Close' }).click();

    await page.getByRole('button', { name: 'Mark all read' }).click();
    await expect.poll(() => bell.getAttribute('aria-label')).toBe('Messages (0)');
    expect((await inbox(token)).unread).toBe(0);

    await list.getByRole('row').filter({ hasText: 'Invoice ready' }).getByRole('button', { name: 'Delete' }).click();
    await confirmPopup(page, { question: 'Delete this message?' });
    await expect.poll(async () => (await inbox(token)).list.map((m) => m.title)).toEqual(['Maintenance tonight']);
    await expect.poll(() => list.getByRole('link', { name: 'Invoice ready' }).count()).toBe(0);
  });

  it('saves the subscription matrix and shows a new webhook secret once', async () => {
    const { token } = await customer();
    const page = await suite.openPage({ token });
    await page.goto(suite.url('/account/subscribe'));
    await page.getByTestId('account-subscribe-page').waitFor();
    const matrix = page.getByTestId('subscription-matrix');
    await matrix.getByRole('checkbox', { name: 'System · Email' }).check();
    await matrix.getByRole('checkbox', { name: 'Announcement · In-app' }).uncheck();
    await page.getByLabel('Webhook URL').fill('http://hooks.example.com/rampart');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('body/webhook_url: must be an https:// URL', { exact: false }).waitFor();
    await page.getByLabel('Webhook URL').fill('https://hooks.example.com/rampart');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Subscription saved').waitFor();
    const saved = await callApi<{ types: { type: string; email: boolean; in_app: boolean }[]; webhook_url: string }>(
      suite.master().baseUrl,
      'GET',
      '/v1/messages/sub',
      { token },
    );
    expect(saved.webhook_url).toBe('https://hooks.example.com/rampart');
    expect(saved.types.find((t) => t.type === 'system')).toMatchObject({ email: true, in_app: true });
    expect(saved.types.find((t) => t.type === 'announcement')).toMatchObject({ in_app: false });

    const secretDialog = await openDialog(page, page.getByRole('button', { name: 'Generate secret' }));
    const secret = (await secretDialog.getByTestId('webhook-secret').textContent())?.trim() ?? '';
    expect(secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    await secretDialog.getByRole('button', { name: 'Done' }).click();
    await page.getByTestId('webhook-secret-state').getByText('A signing secret is set').waitFor();
    await expect.poll(() => page.getByText(secret).count()).toBe(0);
    // Back to the default, so the announcement test below reaches this user in the app.
    await matrix.getByRole('checkbox', { name: 'Announcement · In-app' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect
      .poll(
        async () =>
          (
            await callApi<{ types: { type: string; in_app: boolean }[] }>(
              suite.master().baseUrl,
              'GET',
              '/v1/messages/sub',
              {
                token,
              },
            )
          ).types.find((t) => t.type === 'announcement')?.in_app,
      )
      .toBe(true);
  });

  it('publishes an announcement on /sys/anno: on the login page and in every inbox', async () => {
    const { token } = await customer();
    const page = await suite.openPage({ token: await admin() });
    await page.goto(suite.url('/sys/anno'));
    await page.getByTestId('sys-anno-page').waitFor();
    const form = await openDialog(page, page.getByRole('button', { name: 'New announcement' }));
    await form.getByLabel('Title (Chinese)').fill('升级公告');
    await form.getByLabel('Text (Chinese)').fill('控制台今晚升级。');
    await form.getByLabel('Title (English)').fill('Upgrade notice');
    await form.getByLabel('Text (English)').fill('The console is upgraded tonight.');
    await form.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Announcement published. Recipients:', { exact: false }).waitFor();
    await page.getByTestId('announcement-list').getByText('Upgrade notice').waitFor();
    await expect
      .poll(async () => (await inbox(token)).list.filter((m) => m.type === 'announcement').map((m) => m.title))
      .toEqual(['升级公告 / Upgrade notice']);

    const visitor = await suite.openPage();
    await visitor.goto(suite.url('/login'));
    const shown = visitor.getByTestId('login-announcements');
    await shown.getByText('Upgrade notice').waitFor();
    await shown.getByText('The console is upgraded tonight.').waitFor();
  });

  it('lets an admin send from /sys/message, find it by user, and subscribe to node failover', async () => {
    const { id, token } = await customer();
    const page = await suite.openPage({ token: await admin() });
    await page.goto(suite.url('/sys/message'));
    await page.getByTestId('sys-message-page').waitFor();
    const form = await openDialog(page, page.getByRole('button', { name: 'Send message' }));
    await form.getByLabel('User ID').fill(String(id));
    await form.getByLabel('Title').fill('Certificate renewed');
    await form.getByLabel('Content').fill('Your certificate for shop.example.com was renewed.');
    await form.getByRole('button', { name: 'Send' }).click();
    await page.getByText('Sent. Recipients: 1').waitFor();
    await expect.poll(async () => (await inbox(token)).list.map((m) => m.title)).toContain('Certificate renewed');

    const userFilter = page.getByTestId('message-filters').getByRole('spinbutton', { name: 'User ID' });
    await userFilter.fill(String(id));
    await userFilter.press('Tab');
    const list = page.getByTestId('message-list');
    const row = list.getByRole('row').filter({ hasText: 'Certificate renewed' });
    await row.getByText('mona').waitFor();

    await page.getByRole('tab', { name: 'My subscription' }).click();
    const matrix = page.getByTestId('subscription-matrix');
    await matrix.getByRole('checkbox', { name: 'Node failover · SMS' }).check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Subscription saved').waitFor();
  });

  it('shows the inbox and the login page’s announcement in zh-CN', async () => {
    const { id, token } = await customer();
    const { baseUrl } = suite.master();
    const hour = 60 * 60 * 1000;
    await callApi(baseUrl, 'POST', '/v1/announcements', {
      token: await admin(),
      body: {
        title_zh: '节点维护',
        text_zh: '周六凌晨维护节点。',
        title_en: 'Node maintenance',
        text_en: 'Nodes are serviced early on Saturday.',
        starts_at: new Date(Date.now() - 1000).toISOString(),
        ends_at: new Date(Date.now() + hour).toISOString(),
      },
    });
    await sendTo(id, '欢迎', '欢迎使用。');
    const page = await suite.openPage({ token, locale: 'zh-CN' });
    await page.goto(suite.url('/account/message'));
    await page.getByTestId('account-message-page').waitFor();
    await page.getByTestId('message-list').getByRole('link', { name: '欢迎' }).waitFor();
    await page.getByRole('button', { name: '全部标为已读' }).waitFor();
    await expect.poll(() => page.getByTestId('notice-bell').getAttribute('aria-label')).toMatch(/^消息 \(\d+\)$/);

    const visitor = await suite.openPage({ locale: 'zh-CN' });
    await visitor.goto(suite.url('/login'));
    await visitor.getByTestId('login-announcements').getByText('节点维护').waitFor();
    await visitor.getByTestId('login-announcements').getByText('周六凌晨维护节点。').waitFor();
  });
});

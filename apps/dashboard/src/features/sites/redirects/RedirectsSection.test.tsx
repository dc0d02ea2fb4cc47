// @vitest-environment jsdom
import { checkRedirectRegex, type SiteRedirects } from '@rampart/contracts';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { typeInto, waitFor } from '../../../shared/testing/dom.ts';
import { control, errorAt, ok, refused, save, siteFormHarness, TEST_SITE } from '../edit/siteFormHarness.tsx';

/** What the contract's check says of an expression: the page shows its words. */
const regexRefusal = (expression: string): string => {
  try {
    checkRedirectRegex(expression);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error(`${expression} passes the check`);
};

const STORED: SiteRedirects = {
  rules: [
    { match: 'prefix', value: '/old/', action: 'redirect', status: 301, target: '/new/$1', keep_query: true },
    { match: 'exact', value: '/about.html', action: 'rewrite', status: 301, target: '/about', keep_query: true },
  ],
  host: 'off',
  trailing_slash: 'add',
};

describe('the redirects section of the site edit page', () => {
  const harness = siteFormHarness();
  beforeEach(harness.setUp);
  afterEach(harness.tearDown);

  const section = (container: ParentNode) =>
    waitFor(() => container.querySelector('[data-testid="redirects-section"]'));
  const card = (container: ParentNode, index: number) =>
    waitFor(() => container.querySelector<HTMLElement>(`[data-testid="redirect-rule-${index}"]`));
  const field = <T extends Element>(container: ParentNode, index: number, name: string) =>
    control<T>(container, `redirects_rules_${index}_${name}`);
  const ruleError = (container: ParentNode, index: number, name: string) =>
    errorAt(container, `redirects_rules_${index}_${name}`);
  /** Clicks the radio button of a rule's option (a match, action or status). */
  const choose = async (container: ParentNode, index: number, value: string) =>
    (
      await waitFor(() =>
        container
          .querySelector(`[data-testid="redirect-rule-${index}"]`)
          ?.querySelector<HTMLInputElement>(`input[type="radio"][value="${value}"]`),
      )
    ).click();
  const addRule = async (container: ParentNode) =>
    (await waitFor(() => container.querySelector<HTMLButtonElement>('[data-testid="redirects-add"]'))).click();
  const button = async (container: ParentNode, label: string) =>
    (await waitFor(() => container.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`))).click();

  it('sends a redirect and a rewrite rule in their order with the switches', async () => {
    const { container, puts } = harness.open((body) => ok({ ...TEST_SITE, ...body }));
    await section(container);
    expect(container.querySelector('[data-testid="redirects-empty"]')).not.toBeNull();
    await addRule(container);
    typeInto(await field(container, 0, 'value'), ' /old/ ');
    await choose(container, 0, '302');
    typeInto(await field(container, 0, 'target'), 'https://www.example.com/new/$1');
    (await field<HTMLButtonElement>(container, 0, 'keep_query')).click();
    await addRule(container);
    await choose(container, 1, 'regex');
    await choose(container, 1, 'rewrite');
    await waitFor(() => container.querySelector('#redirects_rules_1_status') === null);
    expect(container.querySelector('#redirects_rules_1_keep_query')).not.toBeNull();
    typeInto(await field(container, 1, 'value'), '^/post/(\\d+)$');
    typeInto(await field(container, 1, 'target'), '/posts/$1');
    (await waitFor(() => container.querySelector<HTMLInputElement>('input[type="radio"][value="remove"]'))).click();
    save(container);
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({
      redirects: {
        rules: [
          {
            match: 'prefix',
            value: '/old/',
            action: 'redirect',
            status: 302,
            target: 'https://www.example.com/new/$1',
            keep_query: false,
          },
          {
            match: 'regex',
            value: '^/post/(\\d+)$',
            action: 'rewrite',
            status: 301,
            target: '/posts/$1',
            keep_query: true,
          },
        ],
        host: 'off',
        trailing_slash: 'remove',
      },
    });
  });

  it('shows the stored rules, and moves and removes them', async () => {
    const site = { ...TEST_SITE, redirects: STORED };
    const { container, puts } = harness.open((body) => ok({ ...site, ...body }), site);
    await section(container);
    expect((await field<HTMLInputElement>(container, 1, 'value')).value).toBe('/about.html');
    await button(container, 'Move rule 2 up');
    await waitFor(() => container.querySelector<HTMLInputElement>('#redirects_rules_0_value')?.value === '/about.html');
    expect((await card(container, 0)).textContent).toContain('Rewrite to');
    await addRule(container);
    await card(container, 2);
    await button(container, 'Remove rule 3');
    await waitFor(() => container.querySelector('[data-testid="redirect-rule-2"]') === null);
    save(container);
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({ redirects: { ...STORED, rules: [STORED.rules[1], STORED.rules[0]] } });
  });

  it('says which captures the target may use', async () => {
    const { container } = harness.open((body) => ok({ ...TEST_SITE, ...body }));
    await section(container);
    await addRule(container);
    const rule = await card(container, 0);
    const hint = (text: string) => waitFor(() => rule.textContent?.includes(text));
    await hint('$1 is the rest of the path after the prefix');
    await choose(container, 0, 'regex');
    await hint('$1 to $9 are the groups of the expression');
    typeInto(await field(container, 0, 'value'), '^/(\\w+)/(\\d+)$');
    await hint('$1 to $2 are the expression’s groups');
    typeInto(await field(container, 0, 'value'), '^/(\\w+)$');
    await hint('$1 is the expression’s group');
    typeInto(await field(container, 0, 'value'), '^/about$');
    await hint('The expression has no groups: no $1');
    await choose(container, 0, 'exact');
    await hint('An exact match has no captures: no $1');
  });

  it('leaves an untouched setting out of the save, also on a site saved before it existed', async () => {
    const { container, puts } = harness.open((body) => ok({ ...TEST_SITE, ...body }), {
      ...TEST_SITE,
      redirects: undefined,
    });
    await section(container);
    typeInto(await waitFor(() => container.querySelector<HTMLInputElement>('#name')), 'store');
    save(container);
    await waitFor(() => puts.length === 1);
    expect(puts[0]).toEqual({ name: 'store' });
  });

  it('names what is wrong with a path, an expression or a target, and sends nothing', async () => {
    const { container, puts } = harness.open((body) => ok({ ...TEST_SITE, ...body }));
    await section(container);
    await addRule(container);
    typeInto(await field(container, 0, 'value'), 'old/');
    typeInto(await field(container, 0, 'target'), '/new/$2');
    await addRule(container);
    await choose(container, 1, 'regex');
    typeInto(await field(container, 1, 'value'), '^/(a+)+$');
    await addRule(container);
    await choose(container, 2, 'regex');
    await choose(container, 2, 'rewrite');
    typeInto(await field(container, 2, 'value'), '^/post/(\\d+)$');
    typeInto(await field(container, 2, 'target'), 'https://www.example.com/$2');
    save(container);
    await waitFor(() => ruleError(container, 0, 'value')?.startsWith('A path starting with /'));
    await waitFor(() => ruleError(container, 0, 'target') === '$2: a prefix match has only $1 (the rest of the path)');
    await waitFor(
      () => ruleError(container, 1, 'value') === `This expression cannot be used: ${regexRefusal('^/(a+)+$')}`,
    );
    await waitFor(
      () => ruleError(container, 2, 'target') === 'A rewrite needs a path starting with /, such as /new/$1',
    );
    typeInto(await field(container, 2, 'target'), '/posts/$2');
    await waitFor(() => ruleError(container, 2, 'target') === '$2: the expression has 1 group');
    typeInto(await field(container, 2, 'target'), '/posts/$1?page=1');
    await waitFor(() => ruleError(container, 2, 'target') === 'A rewrite changes the path only: no ? in it');
    await choose(container, 2, 'exact');
    typeInto(await field(container, 2, 'value'), '/post');
    typeInto(await field(container, 2, 'target'), '/posts/$1');
    await waitFor(() => ruleError(container, 2, 'target') === '$1: an exact match has no captures');
    expect(puts).toEqual([]);
  });

  it('refuses the www. switch when the site has no domain with its www. name', async () => {
    const { container, puts } = harness.open((body) => ok({ ...TEST_SITE, ...body }));
    await section(container);
    (await waitFor(() => container.querySelector<HTMLInputElement>('input[type="radio"][value="to_www"]'))).click();
    save(container);
    await waitFor(() => errorAt(container, 'redirects_host')?.startsWith('Needs a domain and its www. name both'));
    expect(puts).toEqual([]);
  });

  it('shows the server’s refusal of a rule at that rule’s field', async () => {
    const site = { ...TEST_SITE, redirects: STORED };
    const { container } = harness.open(
      () => refused('redirects/rules/0/target: /new/x is matched by this rule again: the redirect would loop'),
      site,
    );
    await section(container);
    typeInto(await field(container, 0, 'target'), '/old/x');
    save(container);
    await waitFor(() => ruleError(container, 0, 'target')?.endsWith('the redirect would loop'));
    expect(ruleError(container, 1, 'target')).toBeUndefined();
  });
});

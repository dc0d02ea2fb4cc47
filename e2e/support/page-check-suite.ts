import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newContext, sharedBrowser } from './browser.ts';
import { type Demo, type DemoRole, seedDemo } from './demo.ts';
import { type RunningMaster, startMaster } from './master.ts';
import { openInApp } from './navigate.ts';
import {
  dashboardLocaleKeys,
  type Finding,
  findingsMarkdown,
  type Language,
  type LocaleKeys,
  pagePaths,
  settle,
  textFindings,
  trackApiRequests,
  watchConsole,
} from './page-check.ts';

/**
 * Every console page as the admin, a sub-admin and a customer in one language. One spec file per
 * language (page-check-zh-CN, page-check-en-US), so that the two halves of the suite's longest file
 * run side by side.
 */
export const describePageCheck = (language: Language) =>
  describe(`every console page, as each role, in ${language}`, () => {
    let master: RunningMaster;
    let demo: Demo;
    let locale: LocaleKeys;
    const findings: Finding[] = [];
    const findingsFile = `/tmp/page-check-findings-${language}.md`;

    beforeAll(async () => {
      master = await startMaster();
      [demo, locale] = await Promise.all([seedDemo(master), dashboardLocaleKeys()]);
    });
    afterAll(async () => {
      await master?.stop();
    });

    /**
     * Visits every page of the role in one browser context, gathering what a reviewer would flag. The
     * first page loads the app; the others open inside it as from the menu (a full load per page was
     * most of this file's time). After a page that could not be checked, the next one loads the app again.
     */
    const visitAll = async (role: DemoRole, language: Language) => {
      const browser = await sharedBrowser();
      const context = await newContext(browser, master.baseUrl, language);
      try {
        await context.addCookies([{ name: 'token', value: role.token, url: master.baseUrl }]);
        const page = await context.newPage();
        await page.setViewportSize({ width: 1280, height: 800 });
        const problems = watchConsole(page);
        trackApiRequests(page);
        // Pages kept alive for their tabs stay in the document, hidden: only the page on screen counts.
        const errorPage = page.getByTestId(/^error-40[34]$/).filter({ visible: true });
        // Without admin:user an admin cannot open the customer's site or stream (404 is right there).
        const seesCustomers = role.viewer.type === 2 || role.viewer.access.includes('admin:user');
        const paths = pagePaths(role.viewer, demo.params).filter(
          (path) => seesCustomers || !/^\/(site|stream)\/list\/\d+$/.test(path),
        );
        // A page's strings load with its code: a page showing another feature's keys would pass after
        // that feature's page in one order only, so the other language's file takes the pages backwards.
        let loaded = false;
        for (const path of language === 'en-US' ? paths : paths.toReversed()) {
          const where = { path, role: role.name, language };
          try {
            if (loaded) await openInApp(page, path);
            else await page.goto(`${master.baseUrl}/dashboard${path}`);
            loaded = true;
            await settle(page);
            if (await errorPage.count()) {
              findings.push({ ...where, what: 'shows an error page instead of the page' });
            }
            findings.push(...(await textFindings(page, { ...where, locale, data: demo.data })));
          } catch (error) {
            loaded = false;
            findings.push({ ...where, what: `could not be checked: ${(error as Error).message.split('\n')[0]}` });
          }
          findings.push(...problems.take().map((what) => ({ ...where, what })));
        }
      } finally {
        await context.close();
      }
    };

    it.each((['admin', 'subAdmin', 'customer'] as const).map((role) => ({ role })))(
      `checks the pages of the $role in ${language}`,
      { timeout: 300_000 },
      async ({ role }) => {
        const before = findings.length;
        await visitAll(demo[role], language);
        await writeFile(findingsFile, findingsMarkdown(findings, `Page check findings, ${language}`));
        const mine = findings.slice(before);
        expect(
          mine.length,
          `${mine.length} finding(s) for the ${role} in ${language} (all in ${findingsFile}):\n${mine
            .map((finding) => `${finding.path}: ${finding.what}`)
            .join('\n')}`,
        ).toBe(0);
      },
    );
  });

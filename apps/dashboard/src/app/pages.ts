import type { ComponentType } from 'react';
import { withChunkTimeout } from './chunkTimeout.ts';

export interface PageModule {
  Component: ComponentType;
}

type ErrorPageName = 'ForbiddenPage' | 'NotFoundPage' | 'ServerErrorPage';

const errorPage = (name: ErrorPageName) =>
  withChunkTimeout(
    async (): Promise<PageModule> => ({
      Component: (await import('../features/errors/ErrorPages.tsx'))[name],
    }),
  );

export const forbiddenPage = errorPage('ForbiddenPage');
export const notFoundPage = errorPage('NotFoundPage');
export const serverErrorPage = errorPage('ServerErrorPage');

export const loginPage = withChunkTimeout(() => import('../features/auth/login/LoginPage.tsx'));
export const registerPage = withChunkTimeout(() => import('../features/auth/register/RegisterPage.tsx'));
export const forgetPasswordPage = withChunkTimeout(
  () => import('../features/auth/forget-password/ForgetPasswordPage.tsx'),
);
export const consoleLayout = withChunkTimeout(() => import('../layout/ConsoleLayout.tsx'));

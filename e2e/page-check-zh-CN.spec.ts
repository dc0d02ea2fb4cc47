import { describePageCheck } from './support/page-check-suite.ts';

describePageCheck('zh-CN');

import { describePageCheck } from './support/page-check-suite.ts';

describePageCheck('en-US');

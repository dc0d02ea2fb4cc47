import { describe, expect, it } from 'vitest';
import { creditCodeProblem, maskIdNumber, residentIdProblem } from './id-numbers.ts';

describe('resident identity number', () => {
  it('accepts the example of GB 11643 and others with a right check character', () => {
    expect(residentIdProblem('11010519491231002X')).toBeNull();
    expect(residentIdProblem('11010519491231002x')).toBeNull();
    expect(residentIdProblem('440308199901010012')).toBeNull();
  });

  it('refuses a wrong check character, a date that does not exist and a wrong shape', () => {
    expect(residentIdProblem('110105194912310021')).toBe('has a wrong check character');
    expect(residentIdProblem('110105194902300028')).toBe('holds no real date of birth');
    expect(residentIdProblem('11010519491231002')).toBe('must be 17 digits and a digit or X');
    expect(residentIdProblem('01010519491231002X')).toBe('must be 17 digits and a digit or X');
  });
});

describe('unified social credit code', () => {
  it('accepts codes with a right check character', () => {
    expect(creditCodeProblem('91350100M000100Y43')).toBeNull();
    expect(creditCodeProblem('91110000600037341L')).toBeNull();
  });

  it('refuses a wrong check character, letters it never uses and a wrong shape', () => {
    expect(creditCodeProblem('91350100M000100Y44')).toBe('has a wrong check character');
    expect(creditCodeProblem('91350100M000100I43')).toMatch(/^must be 18/);
    expect(creditCodeProblem('91A50100M000100Y43')).toMatch(/^must be 18/);
  });
});

it('masks the middle of a number', () => {
  expect(maskIdNumber('11010519491231002X')).toBe('1101**********002X');
});

export const accountUserEnUS = {
  accountUser: {
    tab: { profile: 'Profile', password: 'Password', twoFactor: 'Two-factor sign-in', certify: 'Certification' },
    profile: {
      account: 'Account',
      balance: 'Balance',
      name: 'Name',
      nameRule: 'At most 64 characters, no < or >',
      save: 'Save',
      saved: 'Your profile was saved',
      unchanged: 'Nothing changed',
    },
    password: {
      note: 'After the change, every other place where you are signed in is signed out.',
      current: 'Current password',
      currentRequired: 'Please enter your current password',
      currentWrong: 'The current password is wrong',
      save: 'Change password',
      saved: 'Your password was changed; your other sessions were signed out',
    },
  },
};

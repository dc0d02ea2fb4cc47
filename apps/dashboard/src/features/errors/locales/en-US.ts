export const errorsEnUS = {
  forbiddenPage: {
    reason: {
      forCustomers: 'This page is for customer accounts',
      forAdmins: 'This page is for administrators',
      customerHint:
        'You are signed in as an administrator. Sign in as a customer from the user list to see it as they do.',
      adminHint: 'You are signed in with a customer account.',
      signInAsCustomer: 'Sign in as a customer',
      needsPermission: 'Your account lacks the permission this page needs: {{permissions}}',
      or: ' or ',
    },
  },
};

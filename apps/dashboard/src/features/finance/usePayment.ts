import type { OrderView } from '@rampart/contracts';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer } from 'react';
import { isApiError } from '../../shared/http/apiError.ts';
import { useErrorText } from '../../shared/http/errorText.ts';
import { useOrderActions } from './api.ts';
import { initialPayment, POLL_MS, paymentReducer, paymentTarget } from './paymentFlow.ts';

/**
 * Drives one online recharge through paymentFlow's steps: asks the provider's pre-order for a QR code
 * or a payment page, then reads the order every POLL_MS while the code is shown, until it is paid,
 * closed or the wait (MAX_POLLS reads) runs out.
 */
export const usePayment = () => {
  const actions = useOrderActions();
  const errorText = useErrorText();
  const [state, dispatch] = useReducer(paymentReducer, initialPayment);
  const showing = state.step === 'showing' ? state : null;

  const check = useQuery({
    queryKey: ['orders', 'payment', showing?.order.id],
    enabled: showing !== null,
    queryFn: ({ signal }) => actions.read(showing?.order.id ?? 0, signal),
    refetchInterval: POLL_MS,
    gcTime: 0,
  });
  const { refresh } = actions;
  const { data: checked, dataUpdatedAt: checkedAt } = check;
  // Each read counts, even one that finds the order as before: checkedAt tells them apart.
  useEffect(() => {
    if (!checked || checkedAt === 0) return;
    dispatch({ type: 'checked', order: checked });
    if (checked.state === 'paid') void refresh();
  }, [checked, checkedAt, refresh]);

  const pay = useCallback(
    async (order: OrderView) => {
      dispatch({ type: 'preorder' });
      try {
        const target = paymentTarget(order.channel, await actions.preorder(order));
        dispatch(target ? { type: 'preordered', target } : { type: 'preorderFailed', reason: 'no payment code' });
      } catch (error) {
        // The pre-order route answers 404 until online payment is built and configured.
        if (isApiError(error) && error.status === 404) dispatch({ type: 'notConfigured' });
        else dispatch({ type: 'preorderFailed', reason: isApiError(error) ? errorText(error) : String(error) });
      }
    },
    [actions, errorText],
  );

  return {
    state,
    open: (order: OrderView) => {
      dispatch({ type: 'opened', order });
      void pay(order);
    },
    pay,
    finish: () => dispatch({ type: 'finish' }),
    reset: () => dispatch({ type: 'reset' }),
  };
};

export const chartEnUS = {
  chart: { empty: 'No data in this period' },
};

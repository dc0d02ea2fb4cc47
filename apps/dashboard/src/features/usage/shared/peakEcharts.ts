import { LineChart } from 'echarts/charts';
import { MarkLineComponent } from 'echarts/components';
import * as echarts from 'echarts/core';

// The usage pages' daily chart adds the day's peak as a line and the 95th percentile as a marked line.
echarts.use([LineChart, MarkLineComponent]);

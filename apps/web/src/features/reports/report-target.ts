/** What a Report action names: the item, and how the dialog describes it ("Post by Alice"). */
import type { RouterInputs } from '@cubes/api';

export interface ReportTarget {
  targetType: RouterInputs['reports']['create']['targetType'];
  targetId: string;
  subject: string;
}

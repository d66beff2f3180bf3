"""Admission: the API server's schema checks, then OME's webhook, in OME's
order, each a check of the rules' `admission` list.

Public API: `admit(policy, isvc, cluster, selection) -> Admission` (its JSON
is `views.common.AdmissionView`'s); `kinds.CHECKS` gives each kind of check
its meaning.
"""

from modetable.admission.engine import STAGE_ORDER, Admission, Denial, NotChecked, Shown, admit

__all__ = ["STAGE_ORDER", "Admission", "Denial", "NotChecked", "Shown", "admit"]

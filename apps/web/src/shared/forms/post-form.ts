/**
 * Post a form our server signed to an outside page, as a real browser form POST (payment gateways and ECPay's label
 * page want one, never an iframe or a fetch): the form is added to the page, submitted and removed. `_blank` opens a
 * new tab, so call it from a user's click (no popup blocker stands in the way); `_self` leaves the app.
 */
export function postForm(form: { action: string; fields: Record<string, string> }, target: '_self' | '_blank'): void {
  const el = document.createElement('form');
  el.method = 'post';
  el.action = form.action;
  el.target = target;
  el.acceptCharset = 'UTF-8';
  el.style.display = 'none';
  for (const [name, value] of Object.entries(form.fields)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    el.appendChild(input);
  }
  document.body.appendChild(el);
  el.submit();
  el.remove();
}

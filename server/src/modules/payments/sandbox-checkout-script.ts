// The sandbox's checkout script (PAYMENT_PROVIDER=sandbox): defines window.BasqetCheckout.open(options) as the
// provider's script does (CheckoutOptions in shared/), and opens a modal that says plainly that no money moves.
// Pay records the payment with the sandbox provider; Decline records a refusal. The merchant's server then verifies
// the reference over the provider API, exactly as with Basqet.
export const SANDBOX_CHECKOUT_SCRIPT = String.raw`(function () {
  var script = document.currentScript;
  var base = new URL('.', script && script.src ? script.src : location.href).href;
  function el(tag, style, text) {
    var node = document.createElement(tag);
    if (style) node.setAttribute('style', style);
    if (text) node.textContent = text;
    return node;
  }
  function post(path, body) {
    return fetch(base + 'v1/checkout/' + encodeURIComponent(body.reference) + '/' + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }).then(function (res) {
      return res.json().then(function (json) {
        if (!res.ok) throw new Error(json.message || 'The test payment could not be recorded.');
        return json.data;
      });
    });
  }
  function open(options) {
    var overlay = el('div', 'position:fixed;inset:0;background:rgba(15,23,42,.6);display:flex;align-items:center;justify-content:center;z-index:2147483647;font-family:system-ui,sans-serif');
    overlay.setAttribute('data-testid', 'sandbox-checkout');
    var box = el('div', 'background:#fff;border-radius:12px;padding:24px;width:min(92vw,380px);box-shadow:0 10px 40px rgba(0,0,0,.3)');
    box.setAttribute('role', 'dialog');
    box.setAttribute('aria-modal', 'true');
    box.setAttribute('aria-label', 'Test payment');
    var banner = el('p', 'margin:0 0 16px;padding:8px 12px;border-radius:8px;background:#fef3c7;color:#92400e;font-weight:600;text-align:center', 'Test payment \u2014 no money moves');
    var amount = el('p', 'margin:0 0 4px;font-size:28px;font-weight:700;color:#0f172a', options.currency + ' ' + Number(options.amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
    var narration = el('p', 'margin:0 0 4px;color:#334155', options.narration);
    var customer = el('p', 'margin:0 0 20px;color:#64748b;font-size:14px', options.customer.name + ' \u00b7 ' + options.customer.email);
    var status = el('p', 'margin:0 0 12px;color:#b91c1c;font-size:14px;min-height:1em');
    status.setAttribute('role', 'status');
    var row = el('div', 'display:flex;gap:12px');
    var pay = el('button', 'flex:1;padding:10px;border:0;border-radius:8px;background:#15803d;color:#fff;font-weight:600;cursor:pointer', 'Pay');
    var decline = el('button', 'flex:1;padding:10px;border:1px solid #cbd5e1;border-radius:8px;background:#fff;color:#0f172a;font-weight:600;cursor:pointer', 'Decline');
    pay.type = decline.type = 'button';
    row.append(pay, decline);
    box.append(banner, amount, narration, customer, status, row);
    overlay.append(box);
    document.body.append(overlay);
    var settled = false;
    function finish(callback, result) {
      if (settled) return;
      settled = true;
      overlay.remove();
      callback(result);
    }
    function busy(on) {
      pay.disabled = decline.disabled = on;
    }
    var body = { reference: options.reference, publicKey: options.publicKey, amount: options.amount, currency: options.currency };
    pay.addEventListener('click', function () {
      busy(true);
      post('pay', body).then(
        function (data) { finish(options.onSuccess, { reference: options.reference, status: data.status, id: data.id }); },
        function (err) { status.textContent = err.message; busy(false); }
      );
    });
    decline.addEventListener('click', function () {
      busy(true);
      post('decline', body).then(
        function (data) { finish(options.onClose, { reference: options.reference, status: data.status, message: 'The payment was declined.' }); },
        function (err) { status.textContent = err.message; busy(false); }
      );
    });
  }
  window.BasqetCheckout = { open: open };
})();
`;

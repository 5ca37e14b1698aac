// The sandbox's stand-in for Basqet's `basqet.js` (PAYMENT_PROVIDER=sandbox): defines `window.payWithBasqet(config)`
// with basqet-react's config names and callbacks (shared/providers/basqet.md), and opens a modal that says plainly
// that no money moves. It pays the transaction the merchant's server initialized when `metadata.transaction_id`
// names one (UNCONFIRMED how the real modal is tied to it, see basqet-contract.ts), or else initializes its own from
// the config, as a modal given only an amount must. Pay and Decline settle it with the fake's test-mode `trigger`
// call; Close abandons it. The merchant's server then asks the fake for the status, exactly as it asks Basqet.
// A modal keyboard and screen-reader users can finish: a labelled dialog that takes focus when it opens,
// keeps Tab and Shift+Tab inside, closes on Esc (abandoning the payment, like Close) and gives focus back.
export const SANDBOX_CHECKOUT_SCRIPT = String.raw`(function () {
  var script = document.currentScript;
  var base = new URL('.', script && script.src ? script.src : location.href).href + 'v1/';
  function el(tag, style, text) {
    var node = document.createElement(tag);
    if (style) node.setAttribute('style', style);
    if (text) node.textContent = text;
    return node;
  }
  function call(publicKey, path, body) {
    return fetch(base + path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer ' + publicKey },
      body: JSON.stringify(body),
    }).then(function (res) {
      return res.json().then(function (json) {
        if (!res.ok) throw new Error(json.message || 'The test payment could not be recorded.');
        return json.data;
      });
    });
  }
  function payWithBasqet(config) {
    ['public_key', 'email', 'amount', 'onSuccess', 'onAbandoned'].forEach(function (name) {
      if (config[name] === undefined || config[name] === null || config[name] === '') {
        throw new Error('payWithBasqet: ' + name + ' is required');
      }
    });
    var metadata = config.metadata || {};
    var transaction = metadata.transaction_id
      ? Promise.resolve({ id: metadata.transaction_id })
      : call(config.public_key, 'transaction', {
          customer: { name: config.email, email: config.email },
          amount: String(config.amount),
          currency: config.currency,
          meta: { reference: metadata.reference },
        });
    var overlay = el('div', 'position:fixed;inset:0;background:rgba(15,23,42,.6);display:flex;align-items:center;justify-content:center;z-index:2147483647;font-family:system-ui,sans-serif');
    overlay.setAttribute('data-testid', 'sandbox-checkout');
    var box = el('div', 'background:#fff;border-radius:12px;padding:24px;width:min(92vw,380px);box-shadow:0 10px 40px rgba(0,0,0,.3)');
    box.setAttribute('role', 'dialog');
    box.setAttribute('aria-modal', 'true');
    box.setAttribute('aria-labelledby', 'sandbox-checkout-title');
    box.setAttribute('aria-describedby', 'sandbox-checkout-amount sandbox-checkout-note');
    var title = el('h2', 'margin:0 0 12px;font-size:18px;font-weight:700;color:#0f172a', 'Test payment');
    title.id = 'sandbox-checkout-title';
    var banner = el('p', 'margin:0 0 16px;padding:8px 12px;border-radius:8px;background:#fef3c7;color:#92400e;font-weight:600;text-align:center', 'Test payment \u2014 no money moves');
    banner.id = 'sandbox-checkout-note';
    var amount = el('p', 'margin:0 0 4px;font-size:28px;font-weight:700;color:#0f172a', (config.currency || '') + ' ' + Number(config.amount).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
    amount.id = 'sandbox-checkout-amount';
    amount.setAttribute('data-testid', 'sandbox-amount');
    var customer = el('p', 'margin:0 0 20px;color:#64748b;font-size:14px', config.email);
    var status = el('p', 'margin:0 0 12px;color:#b91c1c;font-size:14px;min-height:1em');
    status.setAttribute('role', 'status');
    status.setAttribute('aria-live', 'polite');
    var row = el('div', 'display:flex;gap:12px');
    var button = 'flex:1;padding:10px;border-radius:8px;font-weight:600;cursor:pointer;';
    // A visible focus ring on every button: the inline styles would otherwise hide the browser's on some pages.
    button += 'outline-offset:2px;';
    var pay = el('button', button + 'border:0;background:#15803d;color:#fff', 'Pay');
    var decline = el('button', button + 'border:1px solid #cbd5e1;background:#fff;color:#0f172a', 'Decline');
    var close = el('button', button + 'border:1px solid #cbd5e1;background:#fff;color:#0f172a', 'Close');
    pay.type = decline.type = close.type = 'button';
    row.append(pay, decline, close);
    box.append(title, banner, amount, customer, status, row);
    overlay.append(box);
    var opener = document.activeElement;
    document.body.append(overlay);
    pay.focus();
    var settled = false;
    var buttons = [pay, decline, close];
    function onKeydown(event) {
      if (event.key === 'Escape') {
        event.preventDefault();
        // Not while a payment is being recorded: its outcome decides.
        if (!close.disabled) finish(config.onAbandoned);
        return;
      }
      if (event.key !== 'Tab') return;
      var usable = buttons.filter(function (b) { return !b.disabled; });
      if (usable.length === 0) { event.preventDefault(); return; }
      var at = usable.indexOf(document.activeElement);
      if (event.shiftKey && at <= 0) { event.preventDefault(); usable[usable.length - 1].focus(); }
      else if (!event.shiftKey && (at === -1 || at === usable.length - 1)) { event.preventDefault(); usable[0].focus(); }
    }
    // Focus that leaves the dialog (a click outside, a screen reader's jump) is brought back.
    function onFocusin(event) {
      if (!box.contains(event.target)) (buttons.filter(function (b) { return !b.disabled; })[0] || box).focus();
    }
    box.tabIndex = -1;
    document.addEventListener('keydown', onKeydown, true);
    document.addEventListener('focusin', onFocusin, true);
    function finish(callback, result) {
      if (settled) return;
      settled = true;
      document.removeEventListener('keydown', onKeydown, true);
      document.removeEventListener('focusin', onFocusin, true);
      overlay.remove();
      if (opener && opener.isConnected && typeof opener.focus === 'function') opener.focus();
      if (callback) callback(result);
      if (config.onClose) config.onClose();
    }
    function busy(on) {
      var had = buttons.indexOf(document.activeElement) !== -1 || document.activeElement === box;
      pay.disabled = decline.disabled = close.disabled = on;
      box.setAttribute('aria-busy', on ? 'true' : 'false');
      // A disabled button drops focus to the page: the dialog keeps it meanwhile, then Pay takes it back.
      if (had) (on ? box : pay).focus();
    }
    function trigger(outcome) {
      busy(true);
      return transaction
        .then(function (txn) {
          return call(config.public_key, 'transaction/' + encodeURIComponent(txn.id) + '/trigger', { status: outcome }).then(function (data) {
            // A transaction is settled once: paying one already declined (or the reverse) changes nothing.
            if (data.status !== outcome) throw new Error('This payment was already ' + String(data.status).toLowerCase() + '.');
            return { id: txn.id, status: data.status, amount: config.amount, currency: config.currency, metadata: metadata };
          });
        })
        .catch(function (err) {
          status.textContent = err.message;
          busy(false);
          throw err;
        });
    }
    pay.addEventListener('click', function () {
      trigger('SUCCESSFUL').then(function (response) { finish(config.onSuccess, response); }, function () {});
    });
    decline.addEventListener('click', function () {
      trigger('DECLINED').then(function () { finish(config.onError, { type: 'declined' }); }, function () {});
    });
    close.addEventListener('click', function () { finish(config.onAbandoned); });
  }
  window.payWithBasqet = payWithBasqet;
})();
`;

// Placeholder: replaced by the library example (issue 9).
print("plan-pull example")
